package io.quarry.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** What the harness reads from a {@code /metrics} page ({@link MetricsPage}). */
class MetricsPageTest {
  @Test
  void compilationTimeIsSummedOverCompilersOfTheMetricsPage() throws Exception {
    String page =
        """
        # HELP jvm_compilation_time_ms_total The approximate accumulated elapsed time spent in compilation
        # TYPE jvm_compilation_time_ms_total counter
        jvm_compilation_time_ms_total{compiler="HotSpot 64-Bit Tiered Compilers"} 1234.0
        jvm_gc_pause_seconds_count{action="end of minor GC"} 3
        """;
    assertThat(MetricsPage.compilationMillis(page)).isEqualTo(1234);
    assertThatThrownBy(() -> MetricsPage.compilationMillis("jvm_threads_live_threads 12.0\n"))
        .isInstanceOf(java.io.IOException.class);
  }

  @Test
  void anOlderServersMetricsSayNothingOfSearchCpu() {
    assertThat(MetricsPage.searchCpuNanos("jvm_threads_live_threads 12.0\n")).isEqualTo(-1);
  }

  @Test
  void session41sSearchCpuHasNoLabels() {
    assertThat(
            MetricsPage.searchCpuNanos(
                "# TYPE quarry_search_cpu_seconds summary\n"
                    + "quarry_search_cpu_seconds_count 3.0\n"
                    + "quarry_search_cpu_seconds_sum 0.25\n"))
        .isEqualTo(250_000_000L);
  }

  @Test
  void theSearchCpuOfEveryOutcomeIsSummed() {
    // session 42: one sample per outcome; a failed or cancelled search's CPU is the server's work
    // too (the first sample alone undercounts)
    assertThat(
            MetricsPage.searchCpuNanos(
                "quarry_search_cpu_seconds_count{outcome=\"completed\"} 3.0\n"
                    + "quarry_search_cpu_seconds_sum{outcome=\"completed\"} 0.25\n"
                    + "quarry_search_cpu_seconds_max{outcome=\"completed\"} 0.1\n"
                    + "quarry_search_cpu_seconds_sum{outcome=\"failed\"} 0.5\n"
                    + "quarry_search_cpu_seconds_sum_other 9\n"))
        .isEqualTo(750_000_000L);
  }
}
