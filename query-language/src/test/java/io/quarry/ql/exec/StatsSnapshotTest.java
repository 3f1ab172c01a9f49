package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.engine.aggregation.PageAggregator;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A live preview of a running page aggregation ({@link PageAggregator#snapshot}): a snapshot
 * answers what finish would for the input so far, and keeps the state.
 */
class StatsSnapshotTest {
  private static final long HOUR = 3_600_000_000L;

  /** The final page aggregation of {@code command}, times bucketed in UTC. */
  private static PageAggregator aggregator(String command) {
    return PageAggregator.of(
        PageRun.commands("* | " + command).get(0),
        ZoneOffset.UTC,
        MemoryTracker.unbounded("test"),
        16);
  }

  /** A partial of {@code total} fed {@code rows} (field → value), one page. */
  private static PageAggregator partial(PageAggregator total, List<Map<String, Object>> rows) {
    PageAggregator partial = total.newPartial();
    partial.addInput(TestPages.page(TestPages.cells(rows)));
    return partial;
  }

  /** Each row as {@code host=count} (a missing field as nothing). */
  private static List<String> hostCounts(List<Page> pages) {
    return TestPages.rows(pages).stream()
        .map(row -> row.getOrDefault("host", "") + "=" + row.get("count"))
        .toList();
  }

  /** Each row as its fields, in column order, as text. */
  private static List<String> wide(List<Page> pages) {
    return TestPages.rows(pages).stream().map(Object::toString).toList();
  }

  private static List<Page> answer(PageAggregator aggregator) {
    aggregator.finish();
    List<Page> pages = new ArrayList<>();
    for (Page page = aggregator.getOutput(); page != null; page = aggregator.getOutput()) {
      pages.add(page);
    }
    assertThat(aggregator.isFinished()).isTrue();
    aggregator.close();
    return pages;
  }

  @Test
  void snapshotThenMoreRowsThenFinish() {
    PageAggregator total = aggregator("stats count by host");
    total.merge(partial(total, List.of(Map.of("host", "a"), Map.of("host", "b"))));

    assertThat(hostCounts(total.snapshot())).containsExactly("a=1", "b=1");

    total.merge(partial(total, List.of(Map.of("host", "a"))));
    assertThat(hostCounts(answer(total))).containsExactly("a=2", "b=1");
  }

  @Test
  void snapshotOfNothingWithoutByIsOneRowOfZero() {
    PageAggregator total = aggregator("stats count");
    assertThat(hostCounts(total.snapshot())).containsExactly("=0");
    assertThat(hostCounts(answer(total))).containsExactly("=0");
  }

  @Test
  void topSnapshotKeepsItsCounts() {
    PageAggregator top = aggregator("top limit=1 host");
    top.merge(partial(top, List.of(Map.of("host", "a"))));
    assertThat(hostCounts(top.snapshot())).containsExactly("a=1");
    top.merge(partial(top, List.of(Map.of("host", "b"), Map.of("host", "b"))));
    assertThat(hostCounts(answer(top))).containsExactly("b=2");
  }

  @Test
  void timechartAndChartPreviewFromACopyOfTheirBuckets() {
    List<Map<String, Object>> first =
        List.of(
            Map.of("_time", 0L, "host", "a", "status", "200"),
            Map.of("_time", HOUR, "host", "b", "status", "500"),
            Map.of("_time", HOUR + 5, "host", "b", "status", "200"));
    Map<String, Object> later = Map.of("_time", 2 * HOUR, "host", "a", "status", "200");
    // the preview, worked out by hand from the first three rows: buckets 0h (a) and 1h (b, b);
    // limit=1 keeps the series of the larger total, b (2 to 1), the rest is OTHER
    Map<String, List<String>> expectedPreview =
        Map.of(
            "timechart span=1h limit=1 useother=true count by host",
            List.of("{_time=0, b=0, OTHER=1}", "{_time=3600000000, b=2, OTHER=0}"),
            "timechart span=1h count by host",
            List.of("{_time=0, a=1, b=0}", "{_time=3600000000, a=0, b=2}"),
            "chart count over host by status",
            List.of("{host=a, 200=1, 500=0}", "{host=b, 200=1, 500=1}"));
    for (String command : expectedPreview.keySet()) {
      PageAggregator total = aggregator(command);
      total.merge(partial(total, first));

      List<String> preview = wide(total.snapshot());
      assertThat(preview).as(command).isEqualTo(expectedPreview.get(command));
      // a second preview sees the same; the state was not consumed or regrouped
      assertThat(wide(total.snapshot())).as(command).isEqualTo(preview);

      total.merge(partial(total, List.of(later)));
      PageAggregator reference = aggregator(command); // one aggregation fed every row
      reference.addInput(TestPages.page(TestPages.cells(first)));
      reference.addInput(TestPages.page(TestPages.cells(List.of(later))));
      assertThat(wide(answer(total))).as(command).isEqualTo(wide(answer(reference)));
    }
  }
}
