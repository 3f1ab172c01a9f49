package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.parser.Parser;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@code timechart} and {@code chart} on pages ({@link ChartAggregation}) against answers computed
 * by hand, and on random rows (multivalued and missing split fields, numbers and text) cut into
 * random pages and partials merged in random order against the same aggregation fed them at once,
 * over the pivot's options: span chosen from {@code bins}, {@code limit}/{@code useother}/{@code
 * otherstr}, {@code usenull}, the where clause, binned over- and split fields, {@code cont}, {@code
 * per_*}; and a preview while the input goes on. A plain Java pivot checks {@code chart count over
 * … by …} exactly and {@code timechart}'s {@code limit}/{@code useother} ranking (session 27); the
 * span chosen from {@code bins}, {@code where … in topN} and {@code cont} are pinned by hand here
 * and in the golden files only.
 */
class ChartAggregationTest {
  private static Command command(String text) {
    return new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
  }

  private static List<Map<String, Object>> pageEngine(
      String text, List<Map<String, Object>> input, Random random, boolean preview) {
    Command command = command(text);
    assertThat(PageAggregator.supports(command)).as(text).isTrue();
    PageAggregator total =
        PageAggregator.of(
            command, ZoneOffset.UTC, MemoryTracker.unbounded("chart"), 1 + random.nextInt(64));
    List<PageAggregator> partials = new ArrayList<>();
    for (Page page : RandomRows.pages(input, PageAggregator.inputFields(command), random)) {
      if (partials.isEmpty() || random.nextInt(4) == 0) {
        partials.add(total.newPartial());
      }
      partials.get(random.nextInt(partials.size())).addInput(page);
      if (random.nextInt(10) == 0) {
        total.merge(partials.get(random.nextInt(partials.size())));
        if (preview) {
          total.snapshot(); // a preview leaves the groups as they were
        }
      }
    }
    partials.forEach(total::merge);
    return answer(total);
  }

  /** The command's answer over {@code input} as one page into one aggregation: no split. */
  private static List<Map<String, Object>> whole(String text, List<Map<String, Object>> input) {
    Command command = command(text);
    PageAggregator total =
        PageAggregator.of(command, ZoneOffset.UTC, MemoryTracker.unbounded("chart"), 10_000);
    total.addInput(TestPages.page(TestPages.cells(input), PageAggregator.inputFields(command)));
    return answer(total);
  }

  private static List<Map<String, Object>> answer(PageAggregator total) {
    total.finish();
    List<Page> out = new ArrayList<>();
    for (Page page = total.getOutput(); page != null; page = total.getOutput()) {
      out.add(page);
    }
    assertThat(total.isFinished()).isTrue();
    total.close();
    return TestPages.rows(out);
  }

  private static Map<String, Object> row(Object... keysAndValues) {
    Map<String, Object> row = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      row.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return row;
  }

  private static final long SECOND = 1_000_000L;

  /**
   * Five events at 0 s, 10 s, 70 s, 75 s and 130 s: ip a, b, a, c and none; n 1 … 5; the answers
   * worked out by hand from Splunk's documentation of {@code timechart} and {@code chart}.
   */
  private static final List<Map<String, Object>> FIVE =
      List.of(
          row("_time", 0L, "ip", "a", "n", 1L),
          row("_time", 10 * SECOND, "ip", "b", "n", 2L),
          row("_time", 70 * SECOND, "ip", "a", "n", 3L),
          row("_time", 75 * SECOND, "ip", "c", "n", 4L),
          row("_time", 130 * SECOND, "n", 5L));

  @Test
  void timechartAsComputedByHand() {
    // one row per minute; a series per ip and NULL for the event without one; a count is 0 in a
    // minute without its events
    assertThat(whole("timechart span=1m count by ip", FIVE))
        .containsExactly(
            row("_time", 0L, "a", 1L, "b", 1L, "c", 0L, "NULL", 0L),
            row("_time", 60 * SECOND, "a", 1L, "b", 0L, "c", 1L, "NULL", 0L),
            row("_time", 120 * SECOND, "a", 0L, "b", 0L, "c", 0L, "NULL", 1L));
    // usenull=false drops the event without an ip (so its minute too: the buckets run from the
    // first charted event to the last); sum(n) has no value where a series has no event
    assertThat(whole("timechart span=1m usenull=false sum(n) by ip", FIVE))
        .containsExactly(
            row("_time", 0L, "a", 1L, "b", 2L), row("_time", 60 * SECOND, "a", 3L, "c", 4L));
    // limit=1: the series of the greatest total (a: 2 events) and OTHER for the rest (b, c, NULL)
    assertThat(whole("timechart span=1m limit=1 count by ip", FIVE))
        .containsExactly(
            row("_time", 0L, "a", 1L, "OTHER", 1L),
            row("_time", 60 * SECOND, "a", 1L, "OTHER", 1L),
            row("_time", 120 * SECOND, "a", 0L, "OTHER", 1L));
    // without a split field: one column per function
    assertThat(whole("timechart span=1m count, max(n) AS top", FIVE))
        .containsExactly(
            row("_time", 0L, "count", 2L, "top", 2L),
            row("_time", 60 * SECOND, "count", 2L, "top", 4L),
            row("_time", 120 * SECOND, "count", 1L, "top", 5L));
  }

  @Test
  void perSecondIsTheBucketsSumOverItsSeconds() {
    // minute 0: n 1 + 2 = 3 over 60 s; minute 1: 3 + 4 = 7; minute 2: 5
    List<Map<String, Object>> answer = whole("timechart span=1m per_second(n) AS rate", FIVE);
    assertThat(answer)
        .extracting(row -> row.get("_time"))
        .containsExactly(0L, 60 * SECOND, 120 * SECOND);
    assertThat((Double) answer.get(0).get("rate")).isCloseTo(3 / 60.0, within(1e-12));
    assertThat((Double) answer.get(1).get("rate")).isCloseTo(7 / 60.0, within(1e-12));
    assertThat((Double) answer.get(2).get("rate")).isCloseTo(5 / 60.0, within(1e-12));
  }

  @Test
  void chartAsComputedByHand() {
    // a column per value of n; chart over ip leaves out the row without ip
    assertThat(whole("chart count over ip by n", FIVE))
        .containsExactly(
            row("ip", "a", "1", 1L, "2", 0L, "3", 1L, "4", 0L),
            row("ip", "b", "1", 0L, "2", 1L, "3", 0L, "4", 0L),
            row("ip", "c", "1", 0L, "2", 0L, "3", 0L, "4", 1L));
    assertThat(whole("chart avg(n) AS mean over ip", FIVE))
        .containsExactly(
            row("ip", "a", "mean", 2.0), row("ip", "b", "mean", 2.0), row("ip", "c", "mean", 4.0));
  }

  /**
   * On random rows (multivalued and missing split fields, numbers and text) cut into random pages
   * and partials merged in random order — with a preview taken on the way for some — the answer is
   * the one the same aggregation gives fed every row at once: it does not depend on the page sizes,
   * the split or previews. What each option answers is pinned by hand above and in the golden files
   * ({@code timechart.spl-spec}, {@code chart.spl-spec}).
   */
  @Test
  void answersDoNotDependOnPagesPartialsOrPreviews() {
    List<String> commands =
        List.of(
            "timechart span=1m count",
            "timechart count by ip",
            "timechart bins=4 avg(bytes) AS mean, max(n) by status",
            "timechart span=30s limit=2 count by ip",
            "timechart span=30s limit=2 useother=false count by ip",
            "timechart span=30s usenull=false otherstr=rest limit=1 sum(n) by ip",
            "timechart span=1m dc(ip) AS ips, per_second(n) AS rate",
            "timechart span=20s cont=false count by status",
            "timechart span=1m count by n bins=3",
            "timechart span=1m count by n span=10",
            "timechart span=1m count by ip where max in top2",
            "timechart span=15s first(n) AS f, latest(bytes) AS l",
            "chart count over status by ip",
            "chart avg(n) over ip",
            "chart count by status, ip",
            "chart count over n span=25 by status",
            "chart count over n bins=4",
            "chart cont=false count over n span=10",
            "chart limit=1 useother=false values(status) AS s over ip by status",
            "chart sep=_ count, sum(n) over status by ip");
    for (long seed = 0; seed < 4; seed++) {
      List<Map<String, Object>> input = RandomRows.of(new Random(seed), 300);
      for (String command : commands) {
        List<Map<String, Object>> expected = whole(command, input);
        assertThat(expected).as(command).isNotEmpty();
        assertThat(pageEngine(command, input, new Random(seed), seed % 2 == 1))
            .as(command + " (seed " + seed + ")")
            .isEqualTo(expected);
      }
    }
  }

  /**
   * {@code chart count over status by ip limit=0} against a plain Java pivot: a row per status (its
   * text), a column per ip value (each value of a multivalue counted; a row without ip in {@code
   * NULL}), each cell the rows with both; a zero cell and a missing one are the same here.
   */
  @Test
  void chartPivotsAsPlainJavaDoes() {
    for (long seed = 0; seed < 6; seed++) {
      List<Map<String, Object>> input = RandomRows.of(new Random(seed), 300);
      Map<String, Map<String, Long>> expected = new java.util.TreeMap<>();
      for (Map<String, Object> row : input) {
        Map<String, Long> cells =
            expected.computeIfAbsent(
                String.valueOf(row.get("status")), k -> new java.util.TreeMap<>());
        List<Object> ips = PlainStats.values(row, "ip");
        if (ips.isEmpty()) {
          cells.merge("NULL", 1L, Long::sum);
        }
        for (Object ip : new java.util.LinkedHashSet<>(ips)) {
          cells.merge(String.valueOf(ip), 1L, Long::sum);
        }
      }
      Map<String, Map<String, Long>> answered = new java.util.TreeMap<>();
      for (Map<String, Object> row :
          pageEngine("chart limit=0 count over status by ip", input, new Random(seed), false)) {
        Map<String, Long> cells = new java.util.TreeMap<>();
        row.forEach(
            (name, value) -> {
              if (!name.equals("status") && value instanceof Long count && count != 0) {
                cells.put(name, count);
              }
            });
        answered.put(String.valueOf(row.get("status")), cells);
      }
      assertThat(answered).as("seed %d", seed).isEqualTo(expected);
    }
  }

  /**
   * {@code timechart span=1m limit=2 count by ip}: the two series kept are two whose totals no
   * other series' total exceeds (the ranking; ties open), {@code OTHER} holds each bucket's count
   * of the rest and {@code NULL} the rows without ip, so every bucket's cells add up to its rows'
   * split values (a multivalue ip counted once per distinct value); with {@code useother=false} no
   * {@code OTHER}.
   */
  @Test
  void timechartLimitKeepsTheLargestSeriesAsPlainJavaRanksThem() {
    for (long seed = 0; seed < 6; seed++) {
      List<Map<String, Object>> input = RandomRows.of(new Random(seed), 300);
      Map<String, Long> totals = new java.util.TreeMap<>();
      Map<Long, Long> perMinute = new java.util.TreeMap<>();
      long nulls = input.stream().filter(r -> r.get("ip") == null).count();
      for (Map<String, Object> row : input) {
        long minute = Math.floorDiv((Long) row.get("_time"), 60 * SECOND) * 60 * SECOND;
        List<Object> ips = PlainStats.values(row, "ip");
        java.util.Set<Object> distinct = new java.util.LinkedHashSet<>(ips);
        perMinute.merge(minute, (long) Math.max(1, distinct.size()), Long::sum);
        distinct.forEach(ip -> totals.merge(String.valueOf(ip), 1L, Long::sum));
      }
      if (nulls > 0) {
        totals.put("NULL", nulls); // the rows without ip: a series like the others
      }
      for (boolean useOther : new boolean[] {true, false}) {
        List<Map<String, Object>> answer =
            pageEngine(
                "timechart span=1m limit=2 useother=" + useOther + " count by ip",
                input,
                new Random(seed),
                false);
        java.util.Set<String> series = new java.util.TreeSet<>();
        answer.forEach(row -> series.addAll(row.keySet()));
        series.remove("_time");
        boolean hasOther = series.remove("OTHER");
        assertThat(hasOther).as("seed %d", seed).isEqualTo(useOther && totals.size() > 2);
        assertThat(series)
            .as("seed %d %s %s %s", seed, totals, answer.get(0).keySet(), nulls)
            .hasSize(Math.min(2, totals.size()));
        long kept = series.stream().mapToLong(totals::get).min().orElse(0);
        for (var total : totals.entrySet()) {
          if (!series.contains(total.getKey())) {
            assertThat(total.getValue())
                .as("seed %d: %s left out", seed, total.getKey())
                .isLessThanOrEqualTo(kept);
          }
        }
        if (useOther) {
          Map<Long, Long> cells = new java.util.TreeMap<>();
          for (Map<String, Object> row : answer) {
            long sum = 0;
            for (var entry : row.entrySet()) {
              if (!entry.getKey().equals("_time") && entry.getValue() instanceof Long count) {
                sum += count;
              }
            }
            if (sum > 0) {
              cells.put((Long) row.get("_time"), sum);
            }
          }
          assertThat(cells).as("seed %d", seed).isEqualTo(perMinute);
        }
      }
    }
  }

  @Test
  void groupsAreReleasedWhenClosed() {
    MemoryAccount account = new MemoryAccount("search", Long.MAX_VALUE);
    PageAggregator chart =
        PageAggregator.of(
            command("timechart bins=3 limit=1 dc(n) by ip"),
            ZoneOffset.UTC,
            new MemoryTracker(account, "timechart"),
            8);
    List<Map<String, Object>> input = RandomRows.of(new Random(5), 300);
    for (Page page : RandomRows.pages(input, List.of("_time", "ip", "n"), new Random(6))) {
      chart.addInput(page);
    }
    assertThat(account.used()).isPositive();
    chart.finish();
    while (chart.getOutput() != null) {}
    chart.close();
    assertThat(account.used()).isZero();
  }
}
