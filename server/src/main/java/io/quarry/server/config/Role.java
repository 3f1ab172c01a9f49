package io.quarry.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Set;

/**
 * A role, after Splunk's {@code authorize.conf}: the indexes its users may search ({@code
 * srchIndexesAllowed}: names or {@code *} wildcards; a wildcard matches an internal index, one
 * whose name starts with {@code _}, only when the pattern starts with {@code _} too, as {@code _*}
 * or {@code _internal}), the indexes a search that names none reads ({@code srchIndexesDefault}),
 * capabilities ({@code edit_lookups}: upload and delete lookups, {@code outputlookup}; {@code
 * admin_all_objects}: every user's search jobs, not only one's own; {@code edit_tcp}: send events
 * through {@code receivers/simple}; {@code run_collect}: write search results into an index with
 * {@code collect}, into those of {@code srchIndexesAllowed} only), a search expression ANDed into
 * every search of its users ({@code srchFilter}), and quotas: how many searches one user may run at
 * once ({@code srchJobsQuota}, default 3 as in Splunk, 0 for no limit) and for how long ({@code
 * srchMaxTime}).
 */
public record Role(
    @JsonProperty("srchIndexesAllowed") List<String> srchIndexesAllowed,
    @JsonProperty("srchIndexesDefault") List<String> srchIndexesDefault,
    @JsonProperty("capabilities") List<String> capabilities,
    @JsonProperty("srchFilter") String srchFilter,
    @JsonProperty("srchJobsQuota") Integer srchJobsQuota,
    @JsonProperty("srchMaxTime") String srchMaxTime) {
  /** Upload and delete lookup tables, and write them with {@code outputlookup}. */
  public static final String EDIT_LOOKUPS = "edit_lookups";

  /** See, read, finalize, cancel and delete every user's search jobs, not only one's own. */
  public static final String ADMIN_ALL_OBJECTS = "admin_all_objects";

  /**
   * Send events over Splunk's {@code receivers/simple} with user credentials (Splunk's name for the
   * capability); HEC tokens need none.
   */
  public static final String EDIT_TCP = "edit_tcp";

  /**
   * Create, change and delete roles over Splunk's {@code authorization/roles}: only roles no
   * stronger than one's own (Splunk's name for the capability).
   */
  public static final String EDIT_ROLES = "edit_roles";

  /**
   * Create, change and delete users over Splunk's {@code authentication/users}, and see them all:
   * only with roles no stronger than one's own (Splunk's name for the capability).
   */
  public static final String EDIT_USER = "edit_user";

  /**
   * Write search results into an index with {@code collect} (Splunk's name for the capability):
   * only into a non-internal index the role may search ({@code srchIndexesAllowed}), as Splunk
   * checks a collect's index against the role's index access.
   */
  public static final String RUN_COLLECT = "run_collect";

  public static final Set<String> CAPABILITIES =
      Set.of(EDIT_LOOKUPS, ADMIN_ALL_OBJECTS, EDIT_TCP, EDIT_ROLES, EDIT_USER, RUN_COLLECT);

  /** Splunk's default {@code srchJobsQuota} (its {@code user} role's). */
  public static final int DEFAULT_JOBS_QUOTA = 3;

  /** Splunk's {@code srchJobsQuota} of its {@code admin} role. */
  public static final int ADMIN_JOBS_QUOTA = 50;

  /** The built-in role of {@code admin}. */
  public static final Role ADMIN =
      new Role(
          List.of("*", "_*"),
          List.of(QuarryConfig.DEFAULT_INDEX),
          List.of(EDIT_LOOKUPS, ADMIN_ALL_OBJECTS, EDIT_TCP, EDIT_ROLES, EDIT_USER, RUN_COLLECT),
          null,
          ADMIN_JOBS_QUOTA,
          null);

  /** The built-in role of users who name none. */
  public static final Role USER =
      new Role(List.of("*"), List.of(QuarryConfig.DEFAULT_INDEX), List.of(), null, null, null);

  public Role {
    srchIndexesAllowed =
        srchIndexesAllowed == null ? List.of("*") : List.copyOf(srchIndexesAllowed);
    srchIndexesDefault =
        srchIndexesDefault == null
            ? List.of(QuarryConfig.DEFAULT_INDEX)
            : List.copyOf(srchIndexesDefault);
    capabilities = capabilities == null ? List.of() : List.copyOf(capabilities);
    srchFilter = srchFilter == null || srchFilter.isBlank() ? null : srchFilter.strip();
    srchJobsQuota = srchJobsQuota == null ? DEFAULT_JOBS_QUOTA : srchJobsQuota;
    srchMaxTime = srchMaxTime == null || srchMaxTime.isBlank() ? null : srchMaxTime.strip();
  }

  /**
   * The most searches one user of this role may run at once (queued jobs included); 0 means no
   * limit, as in Splunk.
   */
  public int jobsQuota() {
    return srchJobsQuota;
  }

  /**
   * The longest a search of this role's users may read events ({@code srchMaxTime}: a number of
   * seconds, or a number with a unit {@code s}, {@code m}, {@code h}, {@code d} — {@code 10m},
   * {@code 8h}, {@code 100days} as Splunk writes it), or empty when the role sets none (or {@code
   * 0}: no limit).
   */
  public java.util.Optional<java.time.Duration> maxTime() {
    return RoleSettings.maxTime(srchMaxTime);
  }

  /** Checks the settings of the role {@code name}; the message names the setting. */
  public void check(String name) {
    RoleSettings.check(this, name);
  }

  /** Whether {@code index} is among {@link #srchIndexesAllowed}. */
  public boolean allows(String index) {
    return matchesAny(srchIndexesAllowed, index);
  }

  /**
   * Whether a name matches one of the patterns (case-insensitive, {@code *} any characters); a name
   * starting with {@code _} (an internal index) matches only a pattern starting with {@code _}.
   */
  public static boolean matchesAny(List<String> patterns, String index) {
    return RoleSettings.matchesAny(patterns, index);
  }
}
