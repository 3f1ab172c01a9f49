package io.quarry.server.auth;

import static java.util.Objects.requireNonNull;

import io.quarry.server.config.Role;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What one authenticated user may do, their roles combined as Splunk combines them: the union of
 * the indexes they may search and of their default indexes, every capability of any role, and the
 * roles' search filters ORed (no filter when any role has none).
 *
 * @param user the user's name
 * @param indexesAllowed index names and patterns the user may search ({@link Role#matchesAny})
 * @param indexesDefault what a search without {@code index=} reads
 * @param capabilities capability names ({@link Role#EDIT_LOOKUPS}, …)
 * @param searchFilter an SPL search expression ANDed into every search, or empty
 * @param searchJobsQuota the most searches the user may run at once, 0 for no limit: the largest
 *     {@code srchJobsQuota} of their roles (0 when any role has no limit), as Splunk combines it
 * @param searchMaxTime the longest one of their searches may read events: the largest {@code
 *     srchMaxTime} of their roles, empty when any role sets none
 */
public record Access(
    String user,
    List<String> indexesAllowed,
    List<String> indexesDefault,
    Set<String> capabilities,
    Optional<String> searchFilter,
    int searchJobsQuota,
    Optional<java.time.Duration> searchMaxTime) {

  public Access {
    requireNonNull(user, "user is null");
    requireNonNull(searchMaxTime, "searchMaxTime is null");
    indexesAllowed = List.copyOf(indexesAllowed);
    indexesDefault = List.copyOf(indexesDefault);
    capabilities = Set.copyOf(capabilities);
    requireNonNull(searchFilter, "searchFilter is null");
  }

  /** The access of {@code user} with {@code roles}. */
  public static Access of(String user, List<Role> roles) {
    Set<String> allowed = new LinkedHashSet<>();
    Set<String> defaults = new LinkedHashSet<>();
    Set<String> capabilities = new LinkedHashSet<>();
    List<String> filters = new ArrayList<>();
    boolean unfiltered = false;
    int quota = roles.isEmpty() ? Role.DEFAULT_JOBS_QUOTA : 1;
    boolean unlimitedQuota = false;
    java.time.Duration maxTime = java.time.Duration.ZERO;
    boolean unlimitedTime = roles.isEmpty();
    for (Role role : roles) {
      quota = Math.max(quota, role.jobsQuota());
      unlimitedQuota |= role.jobsQuota() == 0;
      if (role.maxTime().isEmpty()) {
        unlimitedTime = true;
      } else if (role.maxTime().get().compareTo(maxTime) > 0) {
        maxTime = role.maxTime().get();
      }
      allowed.addAll(role.srchIndexesAllowed());
      defaults.addAll(role.srchIndexesDefault());
      capabilities.addAll(role.capabilities());
      if (role.srchFilter() == null) {
        unfiltered = true;
      } else {
        filters.add("(" + role.srchFilter() + ")");
      }
    }
    Optional<String> filter =
        unfiltered || filters.isEmpty()
            ? Optional.empty()
            : Optional.of(String.join(" OR ", filters));
    return new Access(
        user,
        List.copyOf(allowed),
        List.copyOf(defaults),
        capabilities,
        filter,
        unlimitedQuota ? 0 : quota,
        unlimitedTime ? Optional.empty() : Optional.of(maxTime));
  }

  /** {@code admin}'s access: every index, internal ones included, and every capability. */
  public static Access admin() {
    return of(Authenticator.ADMIN_USER, List.of(Role.ADMIN));
  }

  /** Whether the user may search {@code index}. */
  public boolean mayRead(String index) {
    return Role.matchesAny(indexesAllowed, index);
  }

  /**
   * Whether the user may write {@code index} with {@code collect}: they have {@link
   * Role#RUN_COLLECT}, may search the index, and it is not internal (a name starting with {@code
   * _}: Quarry's own log and audit trail take no events from searches).
   */
  public boolean mayWrite(String index) {
    return has(Role.RUN_COLLECT) && !index.startsWith("_") && mayRead(index);
  }

  /**
   * Requires the right to write {@code index} ({@link #mayWrite}).
   *
   * @param action what the caller is doing, for the message ("collect")
   * @throws io.quarry.server.http.ApiException 403 {@code MISSING_CAPABILITY} without {@link
   *     Role#RUN_COLLECT}, 403 {@code INDEX_NOT_WRITABLE} naming the index otherwise
   */
  public void requireWrite(String index, String action) {
    require(Role.RUN_COLLECT, action);
    if (!mayWrite(index)) {
      throw forbidden(
          "INDEX_NOT_WRITABLE",
          action
              + " may not write index '"
              + index
              + "': "
              + (index.startsWith("_")
                  ? "an internal index takes no events from searches"
                  : "no role of user '" + user + "' may search it (srchIndexesAllowed)"),
          "index",
          index);
    }
  }

  public boolean has(String capability) {
    return capabilities.contains(capability);
  }

  /**
   * Requires a capability.
   *
   * @param action what the caller is doing, for the message ("Changing lookups")
   * @throws io.quarry.server.http.ApiException 403 naming the capability
   */
  public void require(String capability, String action) {
    if (!has(capability)) {
      throw forbidden(
          "MISSING_CAPABILITY",
          action
              + " needs the '"
              + capability
              + "' capability, which no role of user '"
              + user
              + "' has",
          "capability",
          capability);
    }
  }

  /** A 403 with {@code code}, {@code message} and one detail. */
  private static io.quarry.server.http.ApiException forbidden(
      String code, String message, String detail, String value) {
    return new io.quarry.server.http.ApiException(
        io.netty.handler.codec.http.HttpResponseStatus.FORBIDDEN,
        code,
        message,
        java.util.Map.of(detail, value));
  }
}
