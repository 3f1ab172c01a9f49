package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import io.quarry.ql.parser.Parser;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@code count} beside a numeric function ({@code sum}, {@code avg}, {@code min}, {@code max},
 * {@code range}) of the same {@code stats}: answered from the rows that function counts in its own
 * slot per group ({@code RowCount}, {@code GroupingFunction.all}). Every pairing answers as a plain
 * Java {@code stats} ({@link PlainStats}) does, over plain blocks and over a shared dictionary's
 * entries ({@code EntryPartial}), through partials merged in random order; rows without the field,
 * with text, with NaN and with several values count once each; and the pair charges one slot per
 * group, given back exactly once.
 */
class RowCountTest {
  private static final long SECOND = 1_000_000L;
  private static final List<String> NUMERIC = List.of("sum", "avg", "min", "max", "range");

  private static StatsCommand stats(String text) {
    return (StatsCommand)
        new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
  }

  private static List<Map<String, Object>> answer(HashAggregationOperator operator) {
    operator.finish();
    List<Page> pages = new ArrayList<>();
    for (Page page = operator.getOutput(); page != null; page = operator.getOutput()) {
      pages.add(page);
    }
    operator.close();
    return TestPages.rows(pages);
  }

  /** Every numeric function with {@code count} before it, after it, twice, and beside another. */
  private static List<String> pairings(String field) {
    List<String> calls = new ArrayList<>();
    for (String function : NUMERIC) {
      if (function.equals("avg") && field.equals("_time")) {
        // an average of epoch seconds rounds in its 12th digit: the oracle's decimal and a double
        // may round it apart, whatever the layout (HashAggregationTest leaves it out too)
        continue;
      }
      String call = function + "(" + field + ") AS v";
      calls.add("count, " + call);
      calls.add(call + ", count AS c");
      calls.add("count AS a, " + call + ", count AS b, max(n) AS m, count(" + field + ") AS k");
    }
    return calls;
  }

  /**
   * Random rows (whole numbers, decimals, numbers as text, text, missing values, multivalues) cut
   * into random pages and partials, merged in random order, some while others still take rows.
   */
  @Test
  void everyPairingAnswersAsAPlainJavaGroupByDoes() {
    for (long seed = 0; seed < 4; seed++) {
      Random random = new Random(seed);
      List<Map<String, Object>> input = RandomRows.of(random, 400);
      for (String field : List.of("bytes", "n", "_time", "status")) {
        for (String calls : pairings(field)) {
          for (String by : List.of(" by ip", " by status", "")) {
            String command = "stats " + calls + by;
            List<String> byFields = by.isEmpty() ? List.of() : List.of(by.substring(4));
            assertThat(PlainStats.canonical(split(command, input, random)))
                .as(command + " (seed " + seed + ")")
                .isEqualTo(PlainStats.stats(input, calls, byFields));
          }
        }
      }
    }
  }

  private static List<Map<String, Object>> split(
      String command, List<Map<String, Object>> input, Random random) {
    HashAggregationOperator total =
        new HashAggregationOperator(
            stats(command), MemoryTracker.unbounded("total"), 1 + random.nextInt(64));
    List<HashAggregationOperator> partials = new ArrayList<>();
    for (Page page :
        RandomRows.pages(input, HashAggregationOperator.inputFields(stats(command)), random)) {
      if (partials.isEmpty() || random.nextInt(4) == 0) {
        partials.add(total.newPartial());
      }
      partials.get(random.nextInt(partials.size())).addInput(page);
      if (random.nextInt(10) == 0) {
        total.merge(partials.get(random.nextInt(partials.size())));
      }
    }
    partials.forEach(total::merge);
    return answer(total);
  }

  /**
   * Over a shared dictionary's entries (pages of segment ordinals, as a scan's), in two partials
   * merged by entry and handed over whole: the same answer as a plain Java {@code stats} of the
   * same rows.
   */
  @Test
  void overADictionarysEntriesEveryPairingAnswersAsAPlainJavaGroupByDoes() {
    Random random = new Random(40);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      texts.add("s%05d".formatted(i)); // ascending: handed over whole at the end
    }
    BytesBlock.Builder builder = BytesBlock.builder(texts.size());
    texts.forEach(t -> builder.append(t.getBytes(StandardCharsets.UTF_8)));
    BytesBlock dictionary = builder.build();
    for (String field : List.of("n", "_time")) {
      for (String calls : pairings(field)) {
        String command = "stats " + calls + " by session";
        List<Page> byEntry = new ArrayList<>();
        List<Page> plain = new ArrayList<>();
        for (int p = 0, row = 0; p < 6; p++) {
          int count = 1 + random.nextInt(1_500);
          Page[] page = EntryGroupedStatsTest.page(random, dictionary, count, row);
          plain.add(page[0]);
          byEntry.add(page[1]);
          row += count;
        }
        HashAggregationOperator total =
            new HashAggregationOperator(stats(command), MemoryTracker.unbounded("total"), 64);
        HashAggregationOperator[] partials = {total.newPartial(), total.newPartial()};
        for (int p = 0; p < byEntry.size(); p++) {
          partials[p % 2].addInput(byEntry.get(p));
        }
        total.merge(partials[0]);
        total.merge(partials[1]);
        List<Map<String, Object>> answer = answer(total);
        assertThat(total.groupsByEntry()).as(command).isEqualTo(answer.size());
        assertThat(PlainStats.canonical(answer))
            .as(command)
            .isEqualTo(PlainStats.stats(TestPages.rows(plain), calls, List.of("session")));
      }
    }
  }

  /**
   * By hand: a row without the field, without its column, with text, with NaN, with two values —
   * each counted once; the numeric function answers from numbers only (a text where {@code min} has
   * seen none, NaN where one came).
   */
  @Test
  void everyKindOfValueCountsItsRowOnce() {
    List<Map<String, Object>> rows = new ArrayList<>();
    rows.add(row("g", "a", "v", 5L));
    rows.add(row("g", "a")); // no value
    rows.add(row("g", "a", "v", "x"));
    rows.add(row("g", "a", "v", List.of(1L, "2")));
    rows.add(row("g", "b", "v", "x"));
    rows.add(row("g", "b"));
    rows.add(row("v", 9L)); // in no group
    // NaN as arithmetic makes it: in a column of doubles
    List<Map<String, Object>> doubles =
        List.of(row("g", "c", "v", Double.NaN), row("g", "c", "v", 3.5));
    HashAggregationOperator operator =
        new HashAggregationOperator(
            stats("stats count, range(v) AS r, count AS again, min(v) AS lo by g"),
            MemoryTracker.unbounded("stats"),
            16);
    operator.addInput(TestPages.page(TestPages.cells(rows), List.of("g", "v")));
    operator.addInput(TestPages.page(TestPages.cells(doubles), List.of("g", "v")));
    // a page without the column v at all: its rows count, no value added
    operator.addInput(TestPages.page(TestPages.cells(List.of(row("g", "b"))), List.of("g")));
    List<Map<String, Object>> answer = answer(operator);
    assertThat(answer).hasSize(3);
    // a: numbers 5, 1, 2 → range 4, min 1; four rows (r is a column of doubles: c's has a
    // fraction; lo one of text: b's is)
    assertThat(answer.get(0))
        .containsEntry("g", "a")
        .containsEntry("count", 4L)
        .containsEntry("again", 4L)
        .containsEntry("r", 4.0)
        .containsEntry("lo", "1");
    // b: no number → no range; min the least text; three rows (one from the page without v)
    assertThat(answer.get(1))
        .containsEntry("g", "b")
        .containsEntry("count", 3L)
        .containsEntry("again", 3L)
        .containsEntry("lo", "x")
        .doesNotContainKey("r");
    // c: a NaN makes the range and the minimum NaN; two rows
    assertThat(answer.get(2)).containsEntry("g", "c").containsEntry("count", 2L);
    assertThat((Double) answer.get(2).get("r")).isNaN();
    // (lo is a column of text, b's being one: the NaN as text)
    assertThat(String.valueOf(answer.get(2).get("lo"))).isEqualToIgnoringCase("nan");
  }

  /**
   * {@code count} beside {@code range(_time)} takes no bytes of its own: a group's states are the
   * one 32-byte slot that {@code range(_time)} alone takes (before, a count array took 8 more); the
   * partials' charge moves to the final at a merge and everything is given back once, at the end.
   */
  @Test
  void theCountBesideARangeTakesNoBytesOfItsOwnAndIsGivenBackOnce() {
    int groups = 20_000;
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < groups; i++) {
      rows.add(row("_time", 1_767_744_000L * SECOND + i, "g", "g" + i));
    }
    long alone = chargedFor("stats range(_time) by g", rows);
    long withCount = chargedFor("stats range(_time), count by g", rows);
    assertThat(withCount).isEqualTo(alone);
    // and a count beside sum: the sum's 16-byte slot grows to 32 with the rows lane, no array
    long sumAlone = chargedFor("stats sum(_time) by g", rows);
    assertThat(chargedFor("stats sum(_time), count by g", rows) - sumAlone).isEqualTo(16L * groups);

    MemoryAccount account = MemoryAccount.unbounded("search");
    SearchResources resources = new SearchResources(account, () -> false, w -> {});
    HashAggregationOperator total =
        new HashAggregationOperator(
            stats("stats count, range(_time) by g"), resources.tracker("stats"), 1024);
    HashAggregationOperator partial = total.newPartial();
    partial.addInput(TestPages.page(TestPages.cells(rows), List.of("_time", "g")));
    long onePartial = account.used();
    assertThat(onePartial).isGreaterThanOrEqualTo(alone);
    total.merge(partial);
    // moved, not doubled: the final holds what the partial held (its keys taken whole)
    assertThat(account.used()).isLessThanOrEqualTo(onePartial + MemoryTracker.CHUNK);
    partial.close();
    assertThat(answer(total)).hasSize(groups);
    assertThat(account.used()).as("given back at the end").isZero();
  }

  /** The bytes {@code command} charges for {@code rows} of distinct groups, in one page. */
  private static long chargedFor(String command, List<Map<String, Object>> rows) {
    MemoryTracker tracker = MemoryTracker.unbounded("stats");
    HashAggregationOperator operator = new HashAggregationOperator(stats(command), tracker, 1024);
    operator.addInput(TestPages.page(TestPages.cells(rows), List.of("_time", "g")));
    long used = tracker.used();
    operator.close();
    assertThat(tracker.used()).isZero();
    return used;
  }

  private static Map<String, Object> row(Object... keysAndValues) {
    Map<String, Object> row = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      row.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return row;
  }
}
