package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.MemoryLimitExceededException;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import io.quarry.ql.parser.Parser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The page engine's {@code stats} ({@link HashAggregationOperator}) against hand-computed answers
 * and against a plain Java {@code stats} ({@link PlainStats}) on random rows cut into random pages
 * and partials: the answer must be Splunk's, whatever the page sizes or how the input was split.
 */
class HashAggregationTest {
  private static final long SECOND = 1_000_000L;

  private static StatsCommand stats(String text) {
    return (StatsCommand)
        new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
  }

  /** The operator's answer as rows (field → value, a multivalue as a list; nulls left out). */
  private static List<Map<String, Object>> answer(HashAggregationOperator operator) {
    operator.finish();
    List<Page> pages = new ArrayList<>();
    for (Page page = operator.getOutput(); page != null; page = operator.getOutput()) {
      pages.add(page);
    }
    assertThat(operator.isFinished()).isTrue();
    operator.close();
    return TestPages.rows(pages);
  }

  private static HashAggregationOperator operator(String command, int pageSize) {
    return new HashAggregationOperator(stats(command), MemoryTracker.unbounded("stats"), pageSize);
  }

  private static Page page(List<Map<String, Object>> rows, List<String> fields) {
    return TestPages.page(TestPages.cells(rows), fields);
  }

  private static Map<String, Object> row(Object... keysAndValues) {
    Map<String, Object> row = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      row.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return row;
  }

  @Test
  void answersAsComputedByHand() {
    List<Map<String, Object>> input =
        List.of(
            row("_time", 10 * SECOND, "ip", "1.1.1.1", "bytes", 100L),
            row("_time", 12 * SECOND + 500_000, "ip", "1.1.1.1", "bytes", "50.5"),
            row("_time", 11 * SECOND, "ip", List.of("2.2.2.2", "1.1.1.1"), "bytes", 7L),
            row("_time", 13 * SECOND, "bytes", "n/a"),
            row("_time", 14 * SECOND, "ip", "10.0.0.1"));
    HashAggregationOperator operator =
        operator(
            "stats count, count(bytes) AS n, sum(bytes) AS total, range(_time) AS span, dc(bytes)"
                + " AS kinds, values(bytes) AS seen by ip",
            16);
    operator.addInput(page(input, List.of("_time", "ip", "bytes")));
    // groups sorted as Splunk sorts text: 1.1.1.1, 10.0.0.1, 2.2.2.2; the event without an ip
    // falls in none; 1.1.1.1's sum and span have a fraction, so those columns are doubles
    assertThat(answer(operator))
        .containsExactly(
            Map.of(
                "ip",
                "1.1.1.1",
                "count",
                3L,
                "n",
                3L,
                "total",
                157.5,
                "span",
                2.5,
                "kinds",
                3L,
                "seen",
                List.of("100", "50.5", "7")),
            Map.of("ip", "10.0.0.1", "count", 1L, "n", 0L, "span", 0.0, "kinds", 0L),
            Map.of(
                "ip", "2.2.2.2", "count", 1L, "n", 1L, "total", 7.0, "span", 0.0, "kinds", 1L,
                "seen", "7"));
  }

  /**
   * The functions whose answer depends on more than a sum, by hand over five values of one group:
   * 3, 1, 4, 1, 5 (at times 1 s … 5 s) and a text that is not a number.
   */
  @Test
  void orderAndSpreadFunctionsAsComputedByHand() {
    List<Map<String, Object>> input = new ArrayList<>();
    Object[] values = {3L, 1L, "4", 1L, 5.0, "x"};
    for (int i = 0; i < values.length; i++) {
      input.add(row("_time", (i + 1) * SECOND, "v", values[i]));
    }
    HashAggregationOperator operator =
        operator(
            "stats var(v) AS var, varp(v) AS varp, stdev(v) AS sd, median(v) AS med, perc25(v) AS"
                + " q, p90(v) AS p, mode(v) AS mode, first(v) AS f, last(v) AS l, earliest(v) AS e,"
                + " latest(v) AS lt, earliest_time(v) AS et, latest_time(v) AS ltt, rate(v) AS r,"
                + " sumsq(v) AS sq, list(v) AS list, values(v) AS vals, dc(v) AS dc",
            4);
    operator.addInput(page(input, List.of("_time", "v")));
    Map<String, Object> answer = answer(operator).get(0);
    // numbers 3,1,4,1,5: mean 2.8, squared deviations .04+3.24+1.44+3.24+4.84 = 12.8
    assertThat(answer.get("var")).isEqualTo(3.2);
    assertThat(answer.get("varp")).isEqualTo(2.56);
    assertThat((Double) answer.get("sd")).isCloseTo(Math.sqrt(3.2), within(1e-12));
    // sorted 1,1,3,4,5: median rank 2 → 3; p25 rank 1 → 1; p90 rank 3.6 → 4 + .6·(5−4) = 4.6
    assertThat(((Number) answer.get("med")).doubleValue()).isEqualTo(3.0);
    assertThat(((Number) answer.get("q")).doubleValue()).isEqualTo(1.0);
    assertThat((Double) answer.get("p")).isCloseTo(4.6, within(1e-12));
    assertThat(answer.get("mode")).isEqualTo("1"); // the only text seen twice
    // first/latest: the newest (x at 6 s); last/earliest: the oldest (3 at 1 s)
    assertThat(answer.get("f")).isEqualTo("x");
    assertThat(answer.get("lt")).isEqualTo("x");
    // the number 3, though its column holds text too (session 42: no longer the text "3")
    assertThat(answer.get("l")).isEqualTo(3L);
    assertThat(answer.get("e")).isEqualTo(3L);
    assertThat(((Number) answer.get("et")).doubleValue()).isEqualTo(1.0);
    assertThat(((Number) answer.get("ltt")).doubleValue()).isEqualTo(6.0);
    // rate: the latest value (x) is not a number, so no rate
    assertThat(answer).doesNotContainKey("r");
    assertThat(((Number) answer.get("sq")).doubleValue()).isEqualTo(52.0); // 9+1+16+1+25
    // as text, a decimal without a fraction reads as a whole number
    assertThat(answer.get("list")).isEqualTo(List.of("3", "1", "4", "1", "5", "x"));
    assertThat(answer.get("vals")).isEqualTo(List.of("1", "3", "4", "5", "x"));
    assertThat(answer.get("dc")).isEqualTo(5L);
  }

  @Test
  void rateIsTheChangeOverTheSecondsBetweenTheEarliestAndLatest() {
    List<Map<String, Object>> input =
        List.of(
            row("_time", 10 * SECOND, "g", "a", "v", 100L),
            row("_time", 14 * SECOND, "g", "a", "v", 180L),
            row("_time", 12 * SECOND, "g", "a", "v", 1L), // neither earliest nor latest
            row("_time", 12 * SECOND, "g", "b", "v", 5L)); // one time: no rate
    HashAggregationOperator operator = operator("stats rate(v) AS r, count by g", 4);
    operator.addInput(page(input, List.of("_time", "g", "v")));
    assertThat(answer(operator))
        .containsExactly(Map.of("g", "a", "r", 20.0, "count", 3L), Map.of("g", "b", "count", 1L));
  }

  @Test
  void withoutByFieldsNoInputIsOneRowOfEmptyResults() {
    assertThat(answer(operator("stats count, sum(x) AS s, dc(x) AS d", 8)))
        .containsExactly(Map.of("count", 0L, "d", 0L));
  }

  /**
   * The page aggregation against a plain Java {@code stats} ({@link PlainStats}: no engine of ours)
   * over random rows — whole numbers, decimals, numbers as text, text, nulls, multivalues, {@code
   * _time} — cut into random pages fed to random partials, merged in random order (some while
   * others still take rows, as previews do), every function of {@code stats}: the answer must not
   * depend on the page sizes or the split. Numbers compared by value to 12 digits; {@code list}'s
   * values sorted (it keeps arrival order, which partials change); {@code estdc} within 5% of the
   * exact count (a sketch).
   */
  @Test
  void answersAsAPlainJavaGroupByDoes() {
    List<String> commands =
        List.of(
            "stats count by ip",
            "stats count, sum(bytes), avg(bytes), min(bytes), max(bytes), range(bytes) by ip",
            "stats min(_time) AS first, max(_time) AS last, range(_time) AS span by ip, status",
            "stats dc(ip) AS ips, values(status) AS statuses, count(bytes) by status",
            "stats avg(bytes) AS mean, dc(ip)",
            "stats count by _time",
            // several by-fields: one group per combination of their values
            "stats count, sum(bytes) by status, ip",
            "stats count by ip, _time",
            "stats dc(bytes) AS d by n, status, ip",
            "stats var(bytes), varp(bytes), stdev(bytes) AS sd, stdevp(bytes) by status",
            "stats median(bytes), perc90(bytes), p25(_time) by ip",
            "stats mode(status) AS m by status",
            "stats list(bytes) AS l by ip",
            "stats first(n) AS f, last(n) AS l, earliest(status), latest(_time) by ip",
            "stats first(bytes) AS f, latest(ip) AS l by status",
            "stats sumsq(bytes) AS q, earliest_time(bytes) AS e, latest_time(n) AS t by ip",
            "stats rate(bytes) AS r, rate(n) by status",
            "stats count, count(n) AS c, sum(n) AS s, min(n), max(n), avg(n), range(_time) by status",
            "stats count, count(n) AS c, sum(n) AS s, min(n) AS lo, max(n) AS hi, avg(n) AS a,"
                + " dc(ip) AS ips by status",
            // min/max of text: lexicographic where a group has seen no number
            "stats min(ip) AS lo, max(ip) AS hi, max(status), min(bytes) by n");
    for (long seed = 0; seed < 6; seed++) {
      Random random = new Random(seed);
      List<Map<String, Object>> input = RandomRows.of(random, 400);
      for (String command : commands) {
        List<Map<String, Object>> expected =
            sortedLists(PlainStats.stats(input, calls(command), byFields(command)));
        assertThat(sortedLists(PlainStats.canonical(split(command, input, random))))
            .as(command + " (seed " + seed + ")")
            .isEqualTo(expected);
      }
    }
  }

  @Test
  void estimatedDistinctCountsAreNearTheExactCount() {
    for (long seed = 0; seed < 6; seed++) {
      Random random = new Random(seed);
      List<Map<String, Object>> input = RandomRows.of(random, 400);
      List<Map<String, Object>> answer = split("stats estdc(bytes) AS e by status", input, random);
      List<Map<String, Object>> exact =
          PlainStats.stats(input, "dc(bytes) AS e", List.of("status"));
      assertThat(answer).hasSameSizeAs(exact);
      for (int i = 0; i < answer.size(); i++) {
        long dc = Long.parseLong((String) exact.get(i).get("e"));
        assertThat((Long) answer.get(i).get("e"))
            .as("seed %d group %d", seed, i)
            .isCloseTo(dc, org.assertj.core.data.Offset.offset(Math.max(1, dc / 20)));
      }
    }
  }

  /** The command's answer over {@code input} cut into random pages and partials. */
  private static List<Map<String, Object>> split(
      String command, List<Map<String, Object>> input, Random random) {
    HashAggregationOperator total = operator(command, 1 + random.nextInt(64));
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

  private static String calls(String command) {
    String calls = command.substring("stats ".length());
    int by = calls.indexOf(" by ");
    return by < 0 ? calls : calls.substring(0, by);
  }

  private static List<String> byFields(String command) {
    int by = command.indexOf(" by ");
    return by < 0
        ? List.of()
        : java.util.Arrays.stream(command.substring(by + 4).split(",")).map(String::strip).toList();
  }

  /**
   * Rows with every list sorted (as text): {@code list} keeps arrival order, which partials change.
   */
  private static List<Map<String, Object>> sortedLists(List<Map<String, Object>> rows) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      Map<String, Object> copy = new LinkedHashMap<>();
      row.forEach(
          (k, v) ->
              copy.put(
                  k,
                  v instanceof List<?> list
                      ? list.stream().map(String::valueOf).sorted().toList()
                      : v));
      out.add(copy);
    }
    return out;
  }

  /**
   * Partials of thousands of groups merged (in chunks of keys looked up together, each function
   * merging a chunk in one loop) answer as one operator fed every page, and as a plain Java
   * group-by: the chunks' offsets into the partial's groups, and groups new to the total in a later
   * chunk, matter here.
   */
  @Test
  void partialsOfManyGroupsMergeAsOneOperatorAnswers() {
    Random random = new Random(7);
    String command = "stats count, sum(n) AS s, range(_time) AS span, dc(n) AS d by key";
    List<Map<String, Object>> input = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      input.add(
          row(
              "_time",
              1_767_744_000L * SECOND + random.nextInt(86_400) * SECOND,
              "key",
              "session-" + random.nextInt(5_000),
              "n",
              (long) random.nextInt(50)));
    }
    List<String> fields = HashAggregationOperator.inputFields(stats(command));
    List<Page> pages = RandomRows.pages(input, fields, random);
    HashAggregationOperator one = operator(command, 1000);
    pages.forEach(one::addInput);
    HashAggregationOperator total = operator(command, 1000);
    List<HashAggregationOperator> partials =
        List.of(total.newPartial(), total.newPartial(), total.newPartial());
    for (Page page : pages) {
      partials.get(random.nextInt(partials.size())).addInput(page);
    }
    partials.forEach(total::merge);
    assertThat(total.groupCount()).isEqualTo(one.groupCount()).isGreaterThan(4_000);
    List<Map<String, Object>> merged = answer(total);
    assertThat(merged).isEqualTo(answer(one));
    assertThat(PlainStats.canonical(merged))
        .isEqualTo(PlainStats.stats(input, calls(command), List.of("key")));
  }

  @Test
  void groupsAreCountedAgainstTheSearchAndReleasedWhenClosed() {
    MemoryAccount account = new MemoryAccount("search", Long.MAX_VALUE);
    HashAggregationOperator operator =
        new HashAggregationOperator(
            stats("stats dc(bytes) by ip"), new MemoryTracker(account, "stats"), 16);
    List<Map<String, Object>> input = RandomRows.of(new Random(1), 300);
    for (Page page : RandomRows.pages(input, List.of("ip", "bytes"), new Random(2))) {
      operator.addInput(page);
    }
    assertThat(account.used()).isPositive();
    operator.finish();
    while (operator.getOutput() != null) {}
    operator.close();
    assertThat(account.used()).isZero();

    MemoryAccount small = new MemoryAccount("search", 1_000);
    HashAggregationOperator limited =
        new HashAggregationOperator(
            stats("stats count by ip"), new MemoryTracker(small, "stats"), 16);
    assertThatThrownBy(
            () -> {
              for (Page page : RandomRows.pages(input, List.of("ip"), new Random(3))) {
                limited.addInput(page);
              }
            })
        .isInstanceOf(MemoryLimitExceededException.class)
        .hasMessageContaining("stats");
  }

  /**
   * The first partial merged into an empty final is taken whole (its groups and states, not looked
   * up again): the answer is the plain Java group-by's, the partial goes on from empty, and the
   * memory its groups took stays counted — now by the final — until the final is closed.
   */
  @Test
  void aPartialTakenWholeByAnEmptyFinalKeepsItsGroupsAndMemory() {
    String command = "stats count, dc(bytes) AS d, range(_time) AS span, sum(bytes) AS s by ip";
    MemoryAccount account = new MemoryAccount("search", Long.MAX_VALUE);
    MemoryTracker finals = new MemoryTracker(account, "stats");
    HashAggregationOperator total = new HashAggregationOperator(stats(command), finals, 8);
    HashAggregationOperator partial = total.newPartial();
    List<Map<String, Object>> input = RandomRows.of(new Random(7), 300);
    List<String> fields = HashAggregationOperator.inputFields(stats(command));
    List<Page> pages = RandomRows.pages(input, fields, new Random(8));
    int half = pages.size() / 2;
    pages.subList(0, half).forEach(partial::addInput);
    long counted = account.used();
    assertThat(counted).isPositive();
    total.merge(partial);
    assertThat(total.groupCount()).isPositive();
    assertThat(partial.groupCount()).isZero();
    // the final counts what the partial held (reserved as it needs, the partial's reservation
    // ahead of use given back)
    assertThat(finals.used()).isPositive();
    assertThat(account.used()).isBetween(finals.used(), counted);
    pages.subList(half, pages.size()).forEach(partial::addInput); // a preview's partial goes on
    total.merge(partial);
    assertThat(PlainStats.canonical(answer(total)))
        .isEqualTo(PlainStats.stats(input, calls(command), List.of("ip")));
    partial.close();
    total.close();
    assertThat(account.used()).isZero();
  }

  /**
   * {@code min}/{@code max} of a group that has seen no number answer its least or greatest text,
   * by code unit (upper case before lower, "10" before "9"); one number among texts wins — Splunk's
   * "processes values as numbers if possible". Fed over several partials merged.
   */
  @Test
  void minAndMaxOfTextAreLexicographicWhereNoNumber() {
    List<Map<String, Object>> input = new ArrayList<>();
    String[][] rows = {
      {"t", "beta"},
      {"t", "Gamma"},
      {"t", "alpha"},
      {"d", "9x"},
      {"d", "10x"},
      {"m", "zeta"},
      {"m", "7"},
      {"m", "Alpha"},
      {"m", "12"}
    };
    for (String[] row : rows) {
      input.add(row("g", row[0], "v", row[1]));
    }
    String command = "stats min(v) AS lo, max(v) AS hi, range(v) AS r by g";
    assertThat(sortedLists(PlainStats.canonical(split(command, input, new Random(3)))))
        .containsExactlyInAnyOrder(
            Map.of("g", "d", "lo", "10x", "hi", "9x"),
            Map.of("g", "m", "lo", "7", "hi", "12", "r", "5"),
            Map.of("g", "t", "lo", "Gamma", "hi", "beta"));
  }

  /**
   * Numbers read from text by Splunk's rules, by hand: a sign, leading zeros, {@code -0} and an
   * exponent are numbers; {@code x}, a lone sign are not (skipped by the numeric functions, still
   * counted by {@code count(v)}); a sum of whole numbers is whole, one with a fraction a double.
   */
  @Test
  void readsNumbersFromTextAsSplunkDoes() {
    List<Map<String, Object>> input = new ArrayList<>();
    String[] texts = {
      "-0", "+5", "-12", "0123", "999999999999999", "1234567890123456", "1e3", "2.5", "x", "-", "+"
    };
    for (int i = 0; i < texts.length; i++) {
      input.add(row("g", "g" + (i % 3), "v", texts[i]));
    }
    String command = "stats sum(v) AS s, min(v) AS lo, max(v) AS hi, avg(v) AS a, count(v) by g";
    HashAggregationOperator operator = operator(command, 4);
    for (Page page : RandomRows.pages(input, List.of("g", "v"), new Random(1))) {
      operator.addInput(page);
    }
    // g0: -0, 0123, 1e3 (and "-"); g1: +5, 999999999999999, 2.5 (and "+"); g2: -12,
    // 1234567890123456 (and x); a column with a fraction in any row is a column of doubles
    assertThat(answer(operator))
        .containsExactly(
            Map.of(
                "g", "g0", "s", 1123.0, "lo", 0.0, "hi", 1000.0, "a", 1123 / 3.0, "count(v)", 4L),
            Map.of(
                "g",
                "g1",
                "s",
                1_000_000_000_000_006.5,
                "lo",
                2.5,
                "hi",
                999_999_999_999_999.0,
                "a",
                1_000_000_000_000_006.5 / 3,
                "count(v)",
                4L),
            Map.of(
                "g",
                "g2",
                "s",
                1_234_567_890_123_444.0,
                "lo",
                -12.0,
                "hi",
                1_234_567_890_123_456.0,
                "a",
                617_283_945_061_722.0,
                "count(v)",
                3L));
  }
}
