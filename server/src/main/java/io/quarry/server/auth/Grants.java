package io.quarry.server.auth;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.server.config.Role;
import io.quarry.server.http.ApiException;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * What a user who may edit users or roles may hand out: nothing stronger than their own access, so
 * {@code edit_user} or {@code edit_roles} never lead to more than one holds (Splunk leaves this to
 * {@code grantableRoles}; Quarry always applies it). Access {@code granted} is no stronger than a
 * holder's when each of its capabilities is the holder's, each index pattern it may search is one
 * the holder may search too, and — if the holder's searches are filtered — it has the same filter.
 * Quotas ({@code srchJobsQuota}, {@code srchMaxTime}) limit resources, not what may be read, and
 * are not compared. {@code admin}'s access covers every role.
 */
public final class Grants {
  private Grants() {}

  /**
   * Why {@code granted} is stronger than {@code holder}'s access, or null when it is not.
   *
   * @return a reason naming the first capability, index pattern or filter the holder lacks
   */
  public static String stronger(Access holder, Access granted) {
    TreeSet<String> missing = new TreeSet<>(granted.capabilities());
    missing.removeAll(holder.capabilities());
    if (!missing.isEmpty()) {
      return "capability '" + missing.first() + "'";
    }
    for (String pattern : granted.indexesAllowed()) {
      if (!covers(holder, pattern)) {
        return "index pattern '" + pattern + "' in srchIndexesAllowed";
      }
    }
    if (holder.searchFilter().isPresent()
        && !holder.searchFilter().equals(granted.searchFilter())) {
      return "searches without the search filter of user '" + holder.user() + "'";
    }
    return null;
  }

  /**
   * Requires {@code granted} to be no stronger than the caller's access.
   *
   * @param action what the caller does, for the message ("Giving user 'bob' roles [ops]")
   * @throws ApiException 403 {@code PRIVILEGE_ESCALATION} naming what the caller lacks
   */
  public static void require(Access caller, Access granted, String action) {
    String reason = stronger(caller, granted);
    if (reason != null) {
      throw new ApiException(
          HttpResponseStatus.FORBIDDEN,
          "PRIVILEGE_ESCALATION",
          action
              + " would hand out "
              + reason
              + ", which user '"
              + caller.user()
              + "' does not have; one may only grant what one holds",
          Map.of("lacking", reason));
    }
  }

  /** Whether the holder may search every index {@code pattern} matches. */
  private static boolean covers(Access holder, String pattern) {
    String lower = pattern.toLowerCase(Locale.ROOT);
    for (String own : holder.indexesAllowed()) {
      String mine = own.toLowerCase(Locale.ROOT);
      if (mine.equals(lower)
          || (mine.equals("*") && !lower.startsWith("_"))
          || (mine.equals("_*") && lower.startsWith("_"))) {
        return true;
      }
    }
    // a plain index name: whatever the holder's patterns say about it
    return !lower.contains("*") && Role.matchesAny(holder.indexesAllowed(), lower);
  }
}
