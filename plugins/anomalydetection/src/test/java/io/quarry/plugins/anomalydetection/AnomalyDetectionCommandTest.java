package io.quarry.plugins.anomalydetection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.quarry.plugin.testing.CommandTester;
import io.quarry.plugin.testing.PluginTestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnomalyDetectionCommandTest {
  private final CommandTester tester = CommandTester.of(new AnomalyDetectionPlugin());

  /** Response sizes around 500 per host, with a few huge ones; the reference computed directly. */
  private static List<Map<String, Object>> rows(long[][] expectedOutliers) {
    Random random = new Random(3);
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      String host = "web" + (i % 2);
      long bytes = 500 + random.nextInt(41) - 20;
      rows.add(Map.of("host", host, "bytes", bytes));
    }
    rows.add(Map.of("host", "web0", "bytes", 9000L));
    rows.add(Map.of("host", "web0", "bytes", 9000L));
    rows.add(Map.of("host", "web1", "bytes", 1L));
    rows.add(Map.of("host", "web1", "bytes", "not a number"));
    return rows;
  }

  @Test
  void zscoreFindsTheOutliersPerGroup() {
    var result = tester.run("anomalydetection field=bytes by=host", rows(null));
    var outliers = result.sortedBy("host");
    assertThat(outliers).hasSize(2);
    assertThat(outliers.get(0))
        .containsEntry("host", "web0")
        .containsEntry("bytes", 9000L)
        .containsEntry("count", 2L);
    assertThat(outliers.get(1)).containsEntry("host", "web1").containsEntry("bytes", 1L);
    // the group's statistics, against a direct computation over the same numbers
    double[] web0 =
        rows(null).stream()
            .filter(r -> r.get("host").equals("web0") && r.get("bytes") instanceof Long)
            .mapToDouble(r -> (Long) r.get("bytes"))
            .toArray();
    double mean = Arrays.stream(web0).average().orElseThrow();
    double stdev =
        Math.sqrt(Arrays.stream(web0).map(v -> (v - mean) * (v - mean)).sum() / (web0.length - 1));
    assertThat((Double) outliers.get(0).get("mean")).isCloseTo(mean, within(1e-9));
    assertThat((Double) outliers.get(0).get("stdev")).isCloseTo(stdev, within(1e-9));
    assertThat((Double) outliers.get(0).get("zscore"))
        .isCloseTo((9000 - mean) / stdev, within(1e-9));
  }

  @Test
  void iqrUsesInterpolatedQuartiles() {
    TreeMap<Double, Long> values = new TreeMap<>(Map.of(1.0, 1L, 2.0, 1L, 3.0, 1L, 4.0, 1L));
    // numpy.percentile([1,2,3,4], [25, 75]) = [1.75, 3.25]
    assertThat(AnomalyDetectionCommand.quantile(values, 4, 0.25)).isEqualTo(1.75);
    assertThat(AnomalyDetectionCommand.quantile(values, 4, 0.75)).isEqualTo(3.25);
    TreeMap<Double, Long> repeated = new TreeMap<>(Map.of(10.0, 3L, 20.0, 1L));
    // [10,10,10,20]: 25th 10, 75th 12.5
    assertThat(AnomalyDetectionCommand.quantile(repeated, 4, 0.75)).isEqualTo(12.5);

    var result =
        tester.run(
            "anomalydetection field=v method=iqr",
            List.of(
                Map.of("v", 1L),
                Map.of("v", 2L),
                Map.of("v", 3L),
                Map.of("v", 4L),
                Map.of("v", 100L),
                Map.of("v", 2.5)));
    // [1,2,2.5,3,4,100]: Q1 2.125, Q3 3.75, IQR 1.625 → bounds [-0.3125, 6.1875]
    assertThat(result.rows()).hasSize(1);
    assertThat(result.rows().get(0))
        .containsEntry("v", 100L) // every outlier is whole: a long column
        .containsEntry("lower", -0.3125)
        .containsEntry("upper", 6.1875);
  }

  @Test
  void argumentsAreChecked() {
    assertThatThrownBy(() -> tester.parse("anomalydetection"))
        .hasMessageContaining("anomalydetection needs field=");
    assertThatThrownBy(() -> tester.parse("anomalydetection field=x method=mad"))
        .hasMessageContaining("method must be zscore or iqr");
    assertThatThrownBy(() -> tester.parse("anomalydetection field=x threshold=-1"))
        .hasMessageContaining("threshold must be positive");
  }

  @Test
  void splitsIntoMapAndReduceInASearch(@TempDir Path data) throws Exception {
    try (PluginTestServer server = PluginTestServer.start(data, new AnomalyDetectionPlugin())) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        lines.add(
            "2026-01-07T10:"
                + String.format("%02d:%02d", i / 60, i % 60)
                + "Z app=shop latency_ms="
                + (100 + i % 7)
                + " node=h"
                + (i % 2));
      }
      lines.add("2026-01-07T11:00:00Z app=shop latency_ms=5000 node=h1");
      server.load("generic_single_line", lines);
      var rows =
          server
              .search("* | anomalydetection field=latency_ms by=node | table node latency_ms count")
              .rows();
      assertThat(rows).containsExactly(Map.of("node", "h1", "latency_ms", "5000", "count", "1"));
      var explained = server.client().explain("* | anomalydetection field=latency_ms", null, null);
      assertThat(explained).contains("anomalydetection");
    }
  }
}
