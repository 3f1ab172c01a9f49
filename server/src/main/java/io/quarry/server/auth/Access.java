package io.quarry.server.auth;

import static java.util.Objects.requireNonNull;

import io.quarry.server.config.QuarryConfig.Role;
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
 */
public record Access(
    String user,
    List<String> indexesAllowed,
    List<String> indexesDefault,
    Set<String> capabilities,
    Optional<String> searchFilter) {

  public Access {
    requireNonNull(user, "user is null");
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
    for (Role role : roles) {
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
    return new Access(user, List.copyOf(allowed), List.copyOf(defaults), capabilities, filter);
  }

  /** {@code admin}'s access: every index, internal ones included, and every capability. */
  public static Access admin() {
    return of(Authenticator.ADMIN_USER, List.of(Role.ADMIN));
  }

  /** Whether the user may search {@code index}. */
  public boolean mayRead(String index) {
    return Role.matchesAny(indexesAllowed, index);
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
      throw new io.quarry.server.http.ApiException(
          io.netty.handler.codec.http.HttpResponseStatus.FORBIDDEN,
          "MISSING_CAPABILITY",
          action
              + " needs the '"
              + capability
              + "' capability, which no role of user '"
              + user
              + "' has",
          java.util.Map.of("capability", capability));
    }
  }
}
