package io.quarry.server.search;

import static io.quarry.server.PrometheusText.failures;
import static io.quarry.server.PrometheusText.outcome;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.PrometheusText;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failed searches on {@code /metrics}, on a real server over HTTP (issue 23, session 44): a search
 * refused while it is planned — a query that does not parse, through the export route, a search job
 * or a subsearch — is counted once under {@code quarry_search_failures_total{stage="planning"}}
 * with its error code, and as a failed search with its CPU in {@code quarry_searches_seconds} and
 * {@code quarry_search_cpu_seconds} (before, it was in none of them); a search that fails as it
 * runs (over its memory limit) under {@code stage="running"}; one stopped at its time limit in
 * {@code quarry_search_time_limited_total}. The failures summed over their codes are the failed
 * searches.
 */
class SearchFailureMetricsTest {
  private static final String PASSWORD = "failure-metrics-password";

  @TempDir static Path data;
  @AutoClose private static SearchTestServer quarry;

  @BeforeAll
  static void start() throws Exception {
    quarry = SearchTestServer.startWithSearchMemory(data, PASSWORD, 2L * 1024 * 1024);
  }

  @Test
  void aQueryThatDoesNotParseIsAFailedSearchWithItsCode() throws Exception {
    String parse = failures("planning", "400", "QUERY_PARSE");
    double parseFailures = metric(parse);
    double failed = metric(outcome("quarry_searches_seconds_count", "failed"));
    double failedCpu = metric(outcome("quarry_search_cpu_seconds_count", "failed"));

    HttpResponse<String> refused = export("search index=main | stats count(", null);
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
    assertThat(refused.body()).contains("QUERY_PARSE");

    assertThat(metric(parse)).isEqualTo(parseFailures + 1);
    assertThat(metric(outcome("quarry_searches_seconds_count", "failed"))).isEqualTo(failed + 1);
    assertThat(metric(outcome("quarry_search_cpu_seconds_count", "failed")))
        .isEqualTo(failedCpu + 1);
  }

  @Test
  void aSubsearchThatDoesNotParseIsCountedOnceAsItsSearchs() throws Exception {
    String parse = failures("planning", "400", "QUERY_PARSE");
    double before = metric(parse);
    HttpResponse<String> refused =
        export("search index=main [ search index=main | stats count( ] | stats count", null);
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
    assertThat(metric(parse)).isEqualTo(before + 1);
  }

  @Test
  void aSearchJobThatDoesNotParseIsCounted() throws Exception {
    String parse = failures("planning", "400", "QUERY_PARSE");
    double before = metric(parse);
    HttpResponse<String> refused = quarry.postJson("/api/v1/jobs", "{\"query\":\"search | | \"}");
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
    assertThat(metric(parse)).isEqualTo(before + 1);
  }

  @Test
  void aSearchOverItsMemoryLimitIsARunningFailure() throws Exception {
    String memory = failures("running", "422", "MEMORY_LIMIT");
    double before = metric(memory);
    double cpu = metric(outcome("quarry_search_cpu_seconds_sum", "failed"));
    // 200,000 distinct groups do not fit in 2 MiB
    HttpResponse<String> failed =
        export("| makeresults count=200000 | eval id=random() | stats count by id", null);
    assertThat(failed.statusCode()).as(failed.body()).isEqualTo(422);
    assertThat(metric(memory)).isEqualTo(before + 1);
    assertThat(metric(outcome("quarry_search_cpu_seconds_sum", "failed"))).isGreaterThan(cpu);
  }

  @Test
  void aSearchStoppedAtItsTimeLimitIsCounted() throws Exception {
    double before = metric("quarry_search_time_limited_total");
    double failed = metric(outcome("quarry_searches_seconds_count", "failed"));
    // a backreference java.util.regex cannot memoize: ~17 ms a row, hours for them all
    HttpResponse<String> stopped =
        export(
            "| makeresults count=100000 | eval s=\"aaaaaaaaaaaaaaaaaaaa!\" . random()"
                + " | where match(s, \"^(a+)+\\\\1$\") | stats count",
            "0.5");
    assertThat(stopped.statusCode()).as(stopped.body()).isEqualTo(200);
    assertThat(stopped.body()).contains("time limit");
    assertThat(metric("quarry_search_time_limited_total")).isEqualTo(before + 1);
    assertThat(metric(outcome("quarry_searches_seconds_count", "failed"))).isEqualTo(failed);
  }

  @Test
  void theFailuresSumToTheFailedSearches() throws Exception {
    export("search index=main | eval x=", null);
    export("| makeresults count=200000 | eval id=random() | stats count by id", null);
    PrometheusText metrics = quarry.scrape();
    assertThat(metrics.failures()).isGreaterThanOrEqualTo(2);
    assertThat(metrics.failures())
        .as(metrics.toString())
        .isEqualTo(metrics.value(outcome("quarry_searches_seconds_count", "failed")));
  }

  /** The value of the series {@code pattern} (a regex of the name and labels); 0 when absent. */
  private static double metric(String pattern) throws Exception {
    return quarry.scrape().value(pattern);
  }

  private static HttpResponse<String> export(String query, String maxTime) throws Exception {
    return quarry.export(query, maxTime);
  }
}
