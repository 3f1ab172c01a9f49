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
 * Review b44: a search whose subsearch fails as it runs (over its memory limit) is, as docs/api.md
 * says, two failed searches on {@code /metrics} — the subsearch's own ({@code stage="running"},
 * {@code MEMORY_LIMIT}: a subsearch is a search of its own there, as when it completes) and its
 * outer search's ({@code stage="planning"}, {@code SUBSEARCH_FAILED}) — and no more, by the export
 * route and by a search job; a subsearch that does not parse is its outer search's alone ({@code
 * SearchFailureMetricsTest}). An alert on failed searches counts such a user search twice.
 */
class SubsearchFailureCountTest {
  private static final String PASSWORD = "subsearch-failure-password";

  /** 200,000 distinct groups do not fit in the search's 2 MiB. */
  private static final String FAILING_SUBSEARCH =
      "| makeresults count=1 | search [ | makeresults count=200000 | eval id=random()"
          + " | stats count by id | fields id ] | stats count";

  @TempDir static Path data;
  @AutoClose private static SearchTestServer quarry;

  @BeforeAll
  static void start() throws Exception {
    quarry = SearchTestServer.startWithSearchMemory(data, PASSWORD, 2L * 1024 * 1024);
  }

  @Test
  void anExportWhoseSubsearchFailsAsItRunsIsTwoFailedSearches() throws Exception {
    PrometheusText before = scrape();
    HttpResponse<String> refused = quarry.export(FAILING_SUBSEARCH);
    assertThat(refused.statusCode()).as(refused.body()).isBetween(400, 599);
    assertThat(refused.body()).contains("SUBSEARCH");
    assertTwoMoreFailures(before, scrape());
  }

  @Test
  void aJobWhoseSubsearchFailsAsItRunsIsTwoFailedSearches() throws Exception {
    PrometheusText before = scrape();
    HttpResponse<String> refused =
        quarry.postJson(
            "/api/v1/jobs", "{\"query\":\"" + FAILING_SUBSEARCH.replace("\"", "\\\"") + "\"}");
    assertThat(refused.statusCode()).as(refused.body()).isBetween(400, 599);
    assertTwoMoreFailures(before, scrape());
  }

  private static void assertTwoMoreFailures(PrometheusText before, PrometheusText after) {
    String running = failures("running", "422", "MEMORY_LIMIT");
    String planning = failures("planning", "422", "SUBSEARCH_FAILED");
    assertThat(after.value(running) - before.value(running)).as(after.toString()).isEqualTo(1);
    assertThat(after.value(planning) - before.value(planning)).as(after.toString()).isEqualTo(1);
    assertThat(after.failures() - before.failures())
        .as("quarry_search_failures_total, all series:\n" + after)
        .isEqualTo(2);
    String failed = outcome("quarry_searches_seconds_count", "failed");
    assertThat(after.value(failed) - before.value(failed))
        .as("quarry_searches_seconds_count{outcome=failed}")
        .isEqualTo(2);
  }

  private static PrometheusText scrape() throws Exception {
    return quarry.scrape();
  }
}
