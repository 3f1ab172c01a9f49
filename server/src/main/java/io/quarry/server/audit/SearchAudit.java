package io.quarry.server.audit;

import io.quarry.ql.plan.SearchPlan;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.RequestOrigin;
import io.quarry.server.search.SearchStats;
import java.time.Duration;
import java.time.Instant;

/**
 * The audit event of one search, after Splunk's {@code action=search} events: who ran it, the query
 * as sent, its time range ({@code api_et}/{@code api_lt}, epoch seconds or {@code N/A}), the
 * indexes it read, the events it matched ({@code event_count}), the rows it answered ({@code
 * result_count}), how long it ran ({@code total_run_time}, seconds) and how it ended ({@code info}:
 * {@code completed}, {@code finalized}, {@code cancelled} or {@code failed} with the error's code
 * and HTTP status).
 */
public final class SearchAudit {
  private SearchAudit() {}

  /** A search that ran to its end (or was finalized, or cancelled, as {@code info} says). */
  public static AuditEvent ended(
      String user,
      String searchId,
      String query,
      SearchPlan plan,
      SearchStats stats,
      String info,
      Duration elapsed) {
    AuditEvent event =
        base(user, info, searchId, plan, elapsed)
            .with("indexes", String.join(",", stats.indexes()))
            .with("event_count", stats.eventsMatched())
            .with("scan_count", stats.eventsRead())
            .with("result_count", stats.rows());
    java.util.Set<String> written =
        plan == null
            ? java.util.Set.of()
            : new java.util.TreeSet<>(io.quarry.server.search.PlanCollected.indexes(plan));
    if (stats.eventsCollected() > 0 || !written.isEmpty()) {
      // what a search wrote (collect, its subsearches' and map's searches' too)
      event =
          event
              .with("collected_count", stats.eventsCollected())
              .with("collect_indexes", String.join(",", written));
    }
    return event.with("status", 200).with("search", query);
  }

  /** A search job cancelled while it waited for a slot of the job pool: it never ran. */
  public static AuditEvent cancelledBeforeStart(
      String user, String searchId, String query, SearchPlan plan, Duration elapsed) {
    return base(user, "cancelled", searchId, plan, elapsed)
        .with("event_count", 0)
        .with("result_count", 0)
        .with("status", 200)
        .with("search", query);
  }

  /** A search that failed (or was refused before it ran: a quota, a parse error, a capability). */
  public static AuditEvent failed(
      String user,
      String searchId,
      String query,
      SearchPlan plan,
      Throwable error,
      Duration elapsed) {
    AuditEvent event = base(user, "failed", searchId, plan, elapsed);
    if (error instanceof ApiException api) {
      event = event.with("status", api.status().code()).with("error", api.code());
    } else {
      event = event.with("status", 500).with("error", error.getClass().getSimpleName());
    }
    return event.with("reason", String.valueOf(error.getMessage())).with("search", query);
  }

  private static AuditEvent base(
      String user, String info, String searchId, SearchPlan plan, Duration elapsed) {
    AuditEvent event = AuditEvent.of(Instant.now(), user, "search", info);
    if (RequestOrigin.clientAddress().isPresent()) {
      event = event.with("clientip", RequestOrigin.clientAddress().get());
    }
    return event
        .with("search_id", searchId)
        .with("api_et", plan == null ? "N/A" : seconds(plan.earliestMicros(), Long.MIN_VALUE))
        .with("api_lt", plan == null ? "N/A" : seconds(plan.latestMicros(), Long.MAX_VALUE))
        .with("total_run_time", decimal((elapsed.toNanos() + 500_000) / 1_000_000, 3));
  }

  private static String seconds(long micros, long unbounded) {
    if (micros == unbounded) {
      return "N/A";
    }
    return micros % 1_000_000 == 0 ? Long.toString(micros / 1_000_000) : decimal(micros, 6);
  }

  /**
   * {@code units} as a decimal with {@code places} digits after the point ({@code units} /
   * 10^{@code places}): what {@code String.format("%.3f")} writes for whole milliseconds in
   * seconds, without a formatter per search on the request thread.
   */
  static String decimal(long units, int places) {
    long scale = 1;
    for (int i = 0; i < places; i++) {
      scale *= 10;
    }
    StringBuilder text = new StringBuilder(24);
    if (units < 0) {
      text.append('-');
    }
    long whole = Math.abs(units / scale);
    long fraction = Math.abs(units % scale);
    text.append(whole).append('.');
    String digits = Long.toString(fraction);
    for (int i = digits.length(); i < places; i++) {
      text.append('0');
    }
    return text.append(digits).toString();
  }
}
