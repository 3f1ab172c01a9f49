package io.quarry.benchmarks.e2e;

import java.util.List;

/**
 * The fixed query suite of the end-to-end harness, with the SQL and the LogsQL each is compared
 * with.
 *
 * <p>Quarry's index is what the default {@code access_combined} sourcetype makes: {@code _raw} with
 * {@code clientip}, {@code method}, {@code uri_path} and {@code status} extracted at index time
 * (doc values) and every other field extracted at search time. DuckDB's {@code logs} table holds
 * the line and every field parsed into a typed column at load (its load time is reported as its
 * ingest); the search-time query runs its regex at query time on both sides. VictoriaLogs gets the
 * same lines as JSON with fields split out by the sender ({@link VictoriaLogsLines}: by default the
 * four Quarry extracts at index time), plus {@code ts}, the time in epoch seconds, for the one
 * query that does arithmetic on times; like Quarry it extracts the rest from {@code _msg} at search
 * time (the IP, the session id).
 */
public final class QuerySuite {
  private QuerySuite() {}

  /**
   * The query that needs JSESSIONID extracted at index time: it runs only in a run with {@code
   * --indexed-sessions}, which drops {@code sessions_range} (the same search, no longer at search
   * time).
   */
  static final String SESSIONS_INDEXED = "sessions_range_indexed";

  /**
   * The index extraction such a run gives {@code access_combined} besides its built-in one (kept
   * first and the same, so its fields still come from the hand-written parser).
   */
  static final String SESSIONS_EXTRACTION = "JSESSIONID=(?<JSESSIONID>[^&\\s\"]+)";

  /** Each session's time range and event count: JSESSIONID at search time or at index time. */
  private static Query sessionsRange(String name, String note) {
    return new Query(
        name,
        "index=main | stats range(_time) AS duration, count BY JSESSIONID",
        "SELECT jsessionid, epoch(max(ts)) - epoch(min(ts)) AS duration, count(*) AS count"
            + " FROM logs WHERE jsessionid IS NOT NULL GROUP BY jsessionid",
        LogsQl.of(
            "* | extract_regexp `JSESSIONID=(?P<JSESSIONID>[^&\\s\"]+)` from _msg"
                + " | filter JSESSIONID:*"
                + " | stats by (JSESSIONID) min(ts) as first, max(ts) as last, count() as count"
                + " | math last - first as duration"),
        note);
  }

  /** The suite of a run with or without JSESSIONID extracted at index time. */
  static List<Query> queries(boolean indexedSessions) {
    return QUERIES.stream()
        .filter(
            q ->
                indexedSessions
                    ? !q.name().equals("sessions_range")
                    : !q.name().equals(SESSIONS_INDEXED))
        .toList();
  }

  /** The suite, in the order it runs. */
  public static final List<Query> QUERIES =
      List.of(
          new Query(
              "count_by_clientip_indexed",
              "index=main | stats count by clientip",
              "SELECT clientip, count(*) AS count FROM logs GROUP BY clientip",
              LogsQl.of("* | stats by (clientip) count() as count"),
              "index-time field (access_combined's default, doc values) vs a typed column"),
          new Query(
              "count_by_clientip_searchtime",
              "index=main | rex \"^(?<ip>\\S+)\" | stats count by ip",
              "SELECT regexp_extract(line, '^(\\S+)', 1) AS ip, count(*) AS count"
                  + " FROM logs GROUP BY 1",
              LogsQl.of("* | extract \"<ip> \" from _msg | stats by (ip) count() as count"),
              "a regex over _raw at search time on both sides"),
          new Query(
              "status_404_count",
              "index=main status=404 | stats count",
              "SELECT count(*) AS count FROM logs WHERE status = 404",
              LogsQl.of("status:=404 | stats count() as count"),
              "term index + verification of the search-time field vs a column scan"),
          new Query(
              "rare_term",
              "index=main RARETERM",
              "SELECT ts, line FROM logs WHERE contains(line, 'RARETERM') ORDER BY ts DESC",
              LogsQl.of("RARETERM"),
              "term index vs a substring scan"),
          new Query(
              "head_100",
              "index=main | head 100",
              "SELECT ts, line FROM logs ORDER BY ts DESC LIMIT 100",
              LogsQl.of("* | sort by (_time desc) limit 100"),
              "newest 100 events"),
          new Query(
              "timechart_status",
              "index=main | timechart span=1h count by status",
              "PIVOT (SELECT time_bucket(INTERVAL 1 HOUR, ts) AS _time, status FROM logs)"
                  + " ON status USING count(*) GROUP BY _time ORDER BY _time",
              LogsQl.rowsBy("_time", "* | stats by (_time:1h, status) count() as count"),
              "one row per hour, one column per status"),
          new Query(
              "dedup_clientip",
              "index=main | dedup clientip | table _time, clientip, status",
              "SELECT DISTINCT ON (clientip) ts, clientip, status FROM logs"
                  + " ORDER BY clientip, ts DESC",
              LogsQl.of(
                  "* | sort by (_time desc) partition by (clientip) limit 1 | fields _time, clientip, status"),
              "newest event per client"),
          new Query(
              "top_uri_path",
              "index=main | top limit=10 uri_path",
              "SELECT uripath AS uri_path, count(*) AS count, 100.0 * count(*) / sum(count(*)) OVER ()"
                  + " AS percent FROM logs GROUP BY uripath ORDER BY count DESC LIMIT 10",
              LogsQl.of("* | top 10 by (uri_path) hits as count"),
              ""),
          new Query(
              "count_by_method_status",
              "index=main | stats count by method, status",
              "SELECT method, status, count(*) AS count FROM logs GROUP BY method, status",
              LogsQl.of("* | stats by (method, status) count() as count"),
              "two index-time by-fields: no count shortcut, every event through the page engine"),
          sessionsRange(
              "sessions_range",
              "200,000 groups; Quarry extracts JSESSIONID by automatic key=value"),
          sessionsRange(
              SESSIONS_INDEXED,
              "sessions_range over JSESSIONID extracted at index time (--indexed-sessions: its own"
                  + " run, its own ingest), as DuckDB's column is at load"),
          new Query(
              "errors_top_clients",
              "index=main status>=500 | stats count by clientip | sort -count | head 10",
              "SELECT clientip, count(*) AS count FROM logs WHERE status >= 500"
                  + " GROUP BY clientip ORDER BY count DESC LIMIT 10",
              LogsQl.of(
                  "status:>=500 | stats by (clientip) count() as count | sort by (count desc) limit 10"),
              "the README's headline query"));
}
