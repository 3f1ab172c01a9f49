package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
 * The page engine's {@code stats} ({@link HashAggregationOperator}) against hand-computed answers,
 * against a plain Java group-by, and against the row engine's ({@link StatsOperator}) on random
 * rows cut into random pages and partials: the answer must not depend on the engine, the page sizes
 * or how the input was split.
 */
class HashAggregationTest {
  private static final long SECOND = 1_000_000L;

  private static StatsCommand stats(String text) {
    return (StatsCommand)
        new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
  }

  /** The operator's answer as rows (field → value, a multivalue as a list). */
  private static List<Map<String, Object>> answer(HashAggregationOperator operator) {
    operator.finish();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Page page = operator.getOutput(); page != null; page = operator.getOutput()) {
      for (Row row : PluginOperators.rows(page)) {
        rows.add(asMap(row));
      }
    }
    assertThat(operator.isFinished()).isTrue();
    operator.close();
    return rows;
  }

  static Map<String, Object> asMap(Row row) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (String name : row.fieldNames()) {
      List<Object> values = row.values(name);
      map.put(name, values.size() == 1 ? values.get(0) : values);
    }
    return map;
  }

  private static List<Map<String, Object>> rowEngine(String command, List<Row> input) {
    List<Map<String, Object>> rows = new ArrayList<>();
    StatsOperator operator =
        new StatsOperator(
            stats(command),
            new RowSink() {
              @Override
              public boolean accept(Row row) {
                rows.add(asMap(row));
                return true;
              }

              @Override
              public void finish() {}
            });
    input.forEach(operator::accept);
    operator.finish();
    // the row engine's rows go through pages on the way out too: type them the same way
    List<Map<String, Object>> typed = new ArrayList<>();
    if (!rows.isEmpty()) {
      List<Row> asRows = new ArrayList<>();
      for (Map<String, Object> row : rows) {
        asRows.add(new MapRow(row));
      }
      for (Row row : PluginOperators.rows(PageCollector.toPage(asRows))) {
        typed.add(asMap(row));
      }
    }
    return typed;
  }

  private static HashAggregationOperator operator(String command, int pageSize) {
    return new HashAggregationOperator(stats(command), MemoryTracker.unbounded("stats"), pageSize);
  }

  static List<Page> pages(List<Row> rows, List<String> fields, Random random) {
    List<Page> pages = new ArrayList<>();
    for (int from = 0; from < rows.size(); ) {
      int to = Math.min(rows.size(), from + 1 + random.nextInt(50));
      pages.add(PageCollector.toPage(rows.subList(from, to), fields));
      from = to;
    }
    return pages;
  }

  @Test
  void answersAsComputedByHand() {
    List<Row> input =
        List.of(
            TestRow.of("a", "_time", 10 * SECOND, "ip", "1.1.1.1", "bytes", 100L),
            TestRow.of("b", "_time", 12 * SECOND + 500_000, "ip", "1.1.1.1", "bytes", "50.5"),
            TestRow.of("c", "_time", 11 * SECOND, "ip", List.of("2.2.2.2", "1.1.1.1"), "bytes", 7L),
            TestRow.of("d", "_time", 13 * SECOND, "bytes", "n/a"),
            TestRow.of("e", "_time", 14 * SECOND, "ip", "10.0.0.1"));
    HashAggregationOperator operator =
        operator(
            "stats count, count(bytes) AS n, sum(bytes) AS total, range(_time) AS span, dc(bytes)"
                + " AS kinds, values(bytes) AS seen by ip",
            16);
    operator.addInput(PageCollector.toPage(input, List.of("_time", "ip", "bytes")));
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

  @Test
  void withoutByFieldsNoInputIsOneRowOfEmptyResults() {
    assertThat(answer(operator("stats count, sum(x) AS s, dc(x) AS d", 8)))
        .containsExactly(Map.of("count", 0L, "d", 0L));
  }

  @Test
  void answersAsTheRowEngineDoesWhateverThePagesAndPartials() {
    List<String> commands =
        List.of(
            "stats count by ip",
            "stats count, sum(bytes), avg(bytes), min(bytes), max(bytes), range(bytes) by ip",
            "stats min(_time) AS first, max(_time) AS last, range(_time) AS span by ip, status",
            "stats dc(ip) AS ips, values(status) AS statuses, count(bytes) by status",
            "stats avg(bytes) AS mean, dc(ip)",
            "stats count by _time",
            // several by-fields: one composite key of their texts (a timestamp's digits, a
            // number's, a multivalue's combinations)
            "stats count, sum(bytes) by status, ip",
            "stats count by ip, _time",
            "stats dc(bytes) AS d by n, status, ip",
            "stats sum(bytes) AS _time by status",
            "stats var(bytes), varp(bytes), stdev(bytes) AS sd, stdevp(bytes) by status",
            "stats median(bytes), perc90(bytes), p25(_time) by ip",
            "stats mode(status) AS m, estdc(ip) AS e by status",
            "stats list(bytes) AS l by ip", // under list()'s 100 values: which are kept is order's
            // first/last of a column of one type: a page types a column that mixes numbers and text
            // as text, where rows keep each value's type (the values compare equal as text)
            "stats first(n) AS f, last(n) AS l, earliest(status), latest(_time) by ip",
            "stats sumsq(bytes) AS q, earliest_time(bytes) AS e, latest_time(n) AS t by ip",
            "stats rate(bytes) AS r, rate(n) by status",
            // a block of whole numbers (with nulls) or timestamps added in one loop per page
            "stats count, count(n) AS c, sum(n) AS s, min(n), max(n), avg(n), range(_time) by status");
    for (long seed = 0; seed < 6; seed++) {
      Random random = new Random(seed);
      List<Row> input = randomRows(random, 400);
      for (String command : commands) {
        List<String> fields = HashAggregationOperator.inputFields(stats(command));
        HashAggregationOperator total = operator(command, 1 + random.nextInt(64));
        List<HashAggregationOperator> partials = new ArrayList<>();
        for (Page page : pages(input, fields, random)) {
          if (partials.isEmpty() || random.nextInt(4) == 0) {
            partials.add(total.newPartial());
          }
          partials.get(random.nextInt(partials.size())).addInput(page);
          if (random.nextInt(10) == 0) {
            HashAggregationOperator merged = partials.get(random.nextInt(partials.size()));
            total.merge(merged); // merged while others still take rows, as previews do
          }
        }
        partials.forEach(total::merge);
        // doubles to 12 significant digits: partials merged in another order round differently
        assertThat(rounded(answer(total)))
            .as(command + " (seed " + seed + ")")
            .isEqualTo(rounded(rowEngine(command, input)));
      }
    }
  }

  /**
   * The page aggregation against a plain Java group-by over the same random rows (no engine of
   * ours): {@code count}, {@code count(n)}, {@code sum/min/max/avg(n)} of whole numbers, {@code
   * dc(ip)} (a multivalue counts each value) by {@code status} (a number or the text 404, compared
   * as text), cut into random pages and partials; numbers compared by value.
   */
  @Test
  void answersAsAPlainJavaGroupByDoes() {
    String command =
        "stats count, count(n) AS c, sum(n) AS s, min(n) AS lo, max(n) AS hi, avg(n) AS a,"
            + " dc(ip) AS ips by status";
    for (long seed = 0; seed < 6; seed++) {
      Random random = new Random(seed);
      List<Row> input = randomRows(random, 400);
      java.util.TreeMap<String, List<Row>> groups = new java.util.TreeMap<>();
      for (Row row : input) {
        groups
            .computeIfAbsent(String.valueOf(row.values("status").get(0)), k -> new ArrayList<>())
            .add(row);
      }
      List<Map<String, Object>> expected = new ArrayList<>();
      groups.forEach(
          (status, rows) -> {
            List<Long> n =
                rows.stream().flatMap(r -> r.values("n").stream()).map(v -> (Long) v).toList();
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("status", status);
            row.put("count", (long) rows.size());
            row.put("c", (long) n.size());
            if (!n.isEmpty()) {
              long sum = n.stream().mapToLong(Long::longValue).sum();
              row.put("s", sum);
              row.put("lo", n.stream().mapToLong(Long::longValue).min().orElseThrow());
              row.put("hi", n.stream().mapToLong(Long::longValue).max().orElseThrow());
              row.put("a", sum / (double) n.size());
            }
            row.put("ips", rows.stream().flatMap(r -> r.values("ip").stream()).distinct().count());
            expected.add(byValue(row));
          });
      HashAggregationOperator total = operator(command, 1 + random.nextInt(64));
      List<HashAggregationOperator> partials = new ArrayList<>();
      for (Page page : pages(input, HashAggregationOperator.inputFields(stats(command)), random)) {
        if (partials.isEmpty() || random.nextInt(4) == 0) {
          partials.add(total.newPartial());
        }
        partials.get(random.nextInt(partials.size())).addInput(page);
      }
      partials.forEach(total::merge);
      assertThat(answer(total).stream().map(HashAggregationTest::byValue).toList())
          .as("seed %d", seed)
          .isEqualTo(expected);
    }
  }

  /**
   * A row with its numbers as decimals of 12 significant digits without trailing zeros, to compare
   * by value (a whole sum may be a long or a double; an average summed in another order rounds
   * differently in its last bits).
   */
  private static Map<String, Object> byValue(Map<String, Object> row) {
    Map<String, Object> copy = new LinkedHashMap<>();
    row.forEach(
        (k, v) ->
            copy.put(
                k,
                v instanceof Number number
                    ? new java.math.BigDecimal(number.toString())
                        .round(new java.math.MathContext(12))
                        .stripTrailingZeros()
                    : v));
    return copy;
  }

  /**
   * Partials of thousands of groups merged (in chunks of keys looked up together, each function
   * merging a chunk in one loop) answer as one operator fed every page: the chunks' offsets into
   * the partial's groups, and groups new to the total in a later chunk, matter here.
   */
  @Test
  void partialsOfManyGroupsMergeAsOneOperatorAnswers() {
    Random random = new Random(7);
    String command = "stats count, sum(n) AS s, range(_time) AS span, dc(n) AS d by key";
    List<Row> input = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      input.add(
          TestRow.of(
              "event " + i,
              "_time",
              1_767_744_000L * SECOND + random.nextInt(86_400) * SECOND,
              "key",
              "session-" + random.nextInt(5_000),
              "n",
              (long) random.nextInt(50)));
    }
    List<String> fields = HashAggregationOperator.inputFields(stats(command));
    List<Page> pages = pages(input, fields, random);
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
    assertThat(answer(total)).isEqualTo(answer(one));
  }

  private static List<Map<String, Object>> rounded(List<Map<String, Object>> rows) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      Map<String, Object> copy = new LinkedHashMap<>();
      // and a list in sorted order: list() keeps arrival order, which partials change
      row.forEach(
          (k, v) ->
              copy.put(
                  k,
                  v instanceof Double d
                      ? String.format("%.12g", d)
                      : v instanceof List<?> list
                          ? list.stream().map(String::valueOf).sorted().toList()
                          : v));
      out.add(copy);
    }
    return out;
  }

  static List<Row> randomRows(Random random, int count) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      List<Object> fields = new ArrayList<>();
      fields.add("_time");
      fields.add(1_767_744_000L * SECOND + i * 250_000L + random.nextInt(2) * 125_000L);
      int ips = random.nextInt(8);
      if (ips > 0) {
        fields.add("ip");
        fields.add(
            ips == 7
                ? List.of("10.0.0." + random.nextInt(3), "10.0.0." + random.nextInt(3))
                : "10.0.0." + random.nextInt(12));
      }
      fields.add("status");
      fields.add(random.nextBoolean() ? (Object) (long) (200 + random.nextInt(3)) : "404");
      Object bytes =
          switch (random.nextInt(6)) {
            case 0 -> "n/a";
            case 1 -> random.nextInt(1000) + 0.25;
            case 2 -> Integer.toString(random.nextInt(1000));
            default -> (long) random.nextInt(1000);
          };
      fields.add("bytes");
      fields.add(bytes);
      if (random.nextInt(8) > 0) { // sometimes missing: a whole-number column with nulls
        fields.add("n");
        fields.add((long) random.nextInt(100));
      }
      rows.add(TestRow.of("event " + i, fields.toArray()));
    }
    return rows;
  }

  @Test
  void groupsAreCountedAgainstTheSearchAndReleasedWhenClosed() {
    MemoryAccount account = new MemoryAccount("search", Long.MAX_VALUE);
    HashAggregationOperator operator =
        new HashAggregationOperator(
            stats("stats dc(bytes) by ip"), new MemoryTracker(account, "stats"), 16);
    List<Row> input = randomRows(new Random(1), 300);
    for (Page page : pages(input, List.of("ip", "bytes"), new Random(2))) {
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
              for (Page page : pages(input, List.of("ip"), new Random(3))) {
                limited.addInput(page);
              }
            })
        .isInstanceOf(MemoryLimitExceededException.class)
        .hasMessageContaining("stats");
  }

  /**
   * The first partial merged into an empty final is taken whole (its groups and states, not looked
   * up again): the answer is the row engine's, the partial goes on from empty, and the memory its
   * groups took stays counted — now by the final — until the final is closed.
   */
  @Test
  void aPartialTakenWholeByAnEmptyFinalKeepsItsGroupsAndMemory() {
    String command = "stats count, dc(bytes) AS d, range(_time) AS span, sum(bytes) AS s by ip";
    MemoryAccount account = new MemoryAccount("search", Long.MAX_VALUE);
    HashAggregationOperator total =
        new HashAggregationOperator(stats(command), new MemoryTracker(account, "stats"), 8);
    HashAggregationOperator partial = total.newPartial();
    List<Row> input = randomRows(new Random(7), 300);
    List<String> fields = HashAggregationOperator.inputFields(stats(command));
    List<Page> pages = pages(input, fields, new Random(8));
    int half = pages.size() / 2;
    pages.subList(0, half).forEach(partial::addInput);
    long counted = account.used();
    assertThat(counted).isPositive();
    total.merge(partial);
    assertThat(total.groupCount()).isPositive();
    assertThat(partial.groupCount()).isZero();
    assertThat(account.used()).isEqualTo(counted);
    pages.subList(half, pages.size()).forEach(partial::addInput); // a preview's partial goes on
    total.merge(partial);
    assertThat(rounded(answer(total))).isEqualTo(rounded(rowEngine(command, input)));
    partial.close();
    total.close();
    assertThat(account.used()).isZero();
  }

  @Test
  void readsNumbersFromTextAsTheRowEngineDoes() {
    // whole numbers read from the bytes (sign, leading zeros, -0) and the rest through the parser
    List<Row> input = new ArrayList<>();
    String[] texts = {
      "-0", "+5", "-12", "0123", "999999999999999", "1234567890123456", "1e3", "2.5", "x", "-", "+"
    };
    for (int i = 0; i < texts.length; i++) {
      input.add(TestRow.of("e" + i, "g", "g" + (i % 3), "v", texts[i]));
    }
    String command = "stats sum(v) AS s, min(v) AS lo, max(v) AS hi, avg(v) AS a, count(v) by g";
    HashAggregationOperator operator = operator(command, 4);
    for (Page page : pages(input, List.of("g", "v"), new Random(1))) {
      operator.addInput(page);
    }
    assertThat(answer(operator)).isEqualTo(rowEngine(command, input));
  }
}
