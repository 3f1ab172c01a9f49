package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.quarry.codecs.metricstore.MetricScanStats;
import io.quarry.codecs.store.ScanStats;
import io.quarry.ql.exec.StageStats;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * {@link SearchStats}' withers copy every component they do not change: each component is given a
 * value of its own (read from the record's components, so a component added later gets one too),
 * each wither is applied, and every other component must come back equal. A component a wither
 * drops or swaps with another of its type fails here; a component of a type this test cannot make
 * fails it too, asking for a value.
 */
class SearchStatsTest {

  @Test
  void withCpuKeepsEveryOtherComponent() throws Exception {
    assertKeepsAllBut("cpu", stats -> stats.withCpu(Duration.ofMillis(987_654)));
  }

  @Test
  void plusElapsedKeepsEveryOtherComponent() throws Exception {
    assertKeepsAllBut("elapsed", stats -> stats.plusElapsed(Duration.ofMillis(4_321)));
  }

  @Test
  void plusElapsedAddsThePlanningToTheElapsedTime() throws Exception {
    SearchStats stats = distinct();
    assertThat(stats.plusElapsed(Duration.ofMillis(4_321)).elapsed())
        .isEqualTo(stats.elapsed().plus(Duration.ofMillis(4_321)));
    assertThat(stats.plusElapsed(Duration.ZERO)).isSameAs(stats);
  }

  @Test
  void withEventsCollectedKeepsEveryOtherComponent() throws Exception {
    assertKeepsAllBut("eventsCollected", stats -> stats.withEventsCollected(123_456_789));
  }

  @Test
  void plusMetricScanKeepsEveryOtherComponent() throws Exception {
    assertKeepsAllBut(
        "metricScan",
        stats -> stats.plusMetricScan(new MetricScanStats(1, 1, 1, 1, 1, 1, 1, List.of())));
  }

  @Test
  void eachWitherChangesItsOwnComponent() throws Exception {
    SearchStats stats = distinct();
    assertThat(stats.withCpu(Duration.ofMillis(987_654)).cpu())
        .isEqualTo(Duration.ofMillis(987_654));
    assertThat(stats.withEventsCollected(123_456_789).eventsCollected()).isEqualTo(123_456_789);
    assertThat(
            stats
                .plusMetricScan(new MetricScanStats(1, 1, 1, 1, 1, 1, 1, List.of()))
                .metricScan()
                .orElseThrow()
                .points())
        .isEqualTo(stats.metricScan().orElseThrow().points() + 1);
  }

  @Test
  void aMetricSearchsStatsCarryItsScan() {
    MetricScanStats scan = new MetricScanStats(3, 2, 10, 4, 20, 5, 700, List.of());
    SearchStats stats =
        SearchStats.ofMetricScan(
            List.of("m"), scan, 700, 12, Duration.ofMillis(5), List.of(), List.of("note"));
    assertThat(stats.buckets()).isEqualTo(3);
    assertThat(stats.bucketsSkipped()).isEqualTo(2);
    assertThat(stats.eventsRead()).isEqualTo(700);
    assertThat(stats.eventsMatched()).isEqualTo(700);
    assertThat(stats.rows()).isEqualTo(12);
    assertThat(stats.metricScan()).contains(scan);
    assertThat(stats.cpu()).isZero();
    assertThat(stats.messages()).containsExactly("note");
  }

  private static void assertKeepsAllBut(String changed, UnaryOperator<SearchStats> wither)
      throws Exception {
    SearchStats before = distinct();
    SearchStats after = wither.apply(before);
    for (RecordComponent component : SearchStats.class.getRecordComponents()) {
      if (component.getName().equals(changed)) {
        continue;
      }
      assertThat(component.getAccessor().invoke(after))
          .as("component %s after changing %s", component.getName(), changed)
          .isEqualTo(component.getAccessor().invoke(before));
    }
  }

  /** Stats whose components all differ from each other and from their types' zero. */
  private static SearchStats distinct() throws Exception {
    RecordComponent[] components = SearchStats.class.getRecordComponents();
    Class<?>[] types = new Class<?>[components.length];
    Object[] values = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      types[i] = components[i].getType();
      values[i] = valueOf(components[i], 1000 + i);
    }
    Constructor<SearchStats> canonical = SearchStats.class.getDeclaredConstructor(types);
    return canonical.newInstance(values);
  }

  private static Object valueOf(RecordComponent component, int n) {
    Class<?> type = component.getType();
    String name = component.getName();
    if (type == int.class) {
      return n;
    }
    if (type == long.class) {
      return (long) n * 1_000_003L;
    }
    if (type == boolean.class) {
      return true; // the only boolean; false is the default a dropped copy would likely pass
    }
    if (type == Duration.class) {
      return Duration.ofNanos(n * 7_919L);
    }
    if (type == ScanStats.Costs.class) {
      return new ScanStats.Costs(n, n + 1, n + 2, n + 3, n + 4, n + 5);
    }
    if (type == ScanPaths.class) {
      long m = (long) n * 1_000_003L;
      return new ScanPaths(m, m + 1, m + 2, m + 3, m + 4, m + 5, m + 6, m + 7, m + 8, m + 9);
    }
    if (type == Optional.class) {
      return Optional.of(new MetricScanStats(n, n, n, n, n, n, n, List.of("scan " + n)));
    }
    if (type == List.class) {
      return switch (name) {
        case "stages" -> List.of(new StageStats.Stage("stage" + n, n, n + 1, Duration.ofNanos(n)));
        default -> List.of(name + " " + n);
      };
    }
    return fail(
        "SearchStats." + name + " is a " + type + ": give it a distinct value in this test");
  }
}
