package io.quarry.benchmarks.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metric benchmark runs end to end at a small scale in the build (no timing asserted); {@code
 * -Dmetric.bench.points=10000} etc. run it bigger from Maven.
 */
class MetricBenchTest {
  @TempDir Path data;

  @Test
  void runsAndReports() throws Exception {
    List<String> report =
        MetricBench.run(
            data,
            Integer.getInteger("metric.bench.hosts", 2),
            Integer.getInteger("metric.bench.metrics", 8),
            Integer.getInteger("metric.bench.points", 400),
            2,
            Integer.getInteger("metric.bench.runs", 1),
            Boolean.parseBoolean(System.getProperty("metric.bench.events", "true")));
    report.forEach(System.out::println);
    assertThat(report).anyMatch(line -> line.startsWith("HEC ingest"));
    if (Boolean.parseBoolean(System.getProperty("metric.bench.events", "true"))) {
      assertThat(report).anyMatch(line -> line.startsWith("events / metrics"));
    }
    assertThat(report)
        .filteredOn(line -> line.startsWith("| mstats avg(cpu.*)"))
        .singleElement()
        .asString()
        .doesNotContain(", 0 rows");
  }
}
