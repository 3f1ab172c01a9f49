package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Query;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The commands that hold their whole input before they answer, on pages in a {@link PageReduce} —
 * {@code transaction} ({@link TransactionOperator}), {@code bin bins=N} ({@link BinRangeOperator}),
 * {@code fieldsummary} ({@link FieldSummaryOperator}) and {@code outputlookup} ({@link
 * OutputLookupOperator}, which holds the table it writes) — and searches of bare words over events'
 * {@code _raw}, over random pages (whole numbers, decimals, numbers as text, text, nulls,
 * multivalues, a column some pages lack, {@code _time} mostly descending and sometimes missing):
 * against plain Java where the rule is short to write out (a transaction per value without limits,
 * {@code maxevents}, the power-of-ten span of {@code bins}, fieldsummary's counts, the table {@code
 * outputlookup} writes, the raw-text matches), and for every form, the same answer whatever pages
 * the input comes in and the answer goes out in. The hand-computed answers are in {@link
 * TransactionTest}, {@link BinTest} and the golden files (transaction 16×, fieldsummary,
 * outputlookup, {@code bin bins=}).
 */
class BlockingStagesTest {
  private static final Instant NOW = Instant.parse("2026-01-05T00:00:00Z");

  @ParameterizedTest
  @ValueSource(
      strings = {
        "transaction t",
        "transaction t, extra maxspan=30s",
        "transaction t maxpause=20s maxevents=3",
        "transaction mv maxevents=2 | stats count by eventcount",
        "transaction t startswith=\"n>10\" endswith=\"d<20\"",
        "transaction t startswith=eval(n>10) keepevicted=true",
        "transaction t endswith=\"t=v1 OR n<0\" keepevicted=true",
        "transaction endswith=eval(n<0)",
        "transaction maxspan=40s",
        "transaction t mvlist=true keeporphans=true",
        "transaction t, extra connected=false mvlist=\"n,mv\"",
        "transaction extra keeporphans=true | where _txn_orphan=1 | table _time, extra, n, mv",
        "transaction extra keeporphans=true maxevents=2",
        "transaction t | head 3",
        "eval x=n*2 | transaction t, x | stats count, max(duration) by t",
        "bin n bins=4",
        "bin d bins=10 AS b",
        "bin _time bins=5",
        "bin t bins=3",
        "bin _time bins=3 minspan=1m AS bt",
        "bin n bins=4 start=0 end=100 AS nb | stats count by nb",
        "bin mv bins=2",
        "fieldsummary",
        "fieldsummary maxvals=2",
        "eval x=if(n>3, n, d) | fieldsummary",
        "stats count, avg(d) by t | fieldsummary",
        "outputlookup written.csv",
        "outputlookup written.csv | head 2",
        "eval x=mv | outputlookup written.csv | stats count",
        // bare words and phrases over each position's _raw
        "transaction t startswith=\"line\"",
        "transaction t endswith=\"\\\"line 1\\\" OR n<0\" keepevicted=true",
        "transaction t startswith=\"NOT line\" endswith=\"line t=v1\" maxevents=4",
        "transaction extra startswith=eval(searchmatch(\"line\") AND n>2) keeporphans=true",
        "transaction startswith=\"2\" maxspan=40s | stats count by eventcount",
        "search line | stats count by t",
        "where n > 0 | search \"line 1\" OR t=v1 | table n, t, _raw",
        "eval x=n | search NOT line | sort n | head 4",
        "search line 2 | transaction t",
      })
  void answersDoNotDependOnPages(String commands) {
    for (long seed = 0; seed < 30; seed++) {
      List<Page> input = TimedRandomPages.of(new Random(seed), true);
      Map<String, LookupTable> written = new HashMap<>();
      List<Map<String, Object>> expected = answer(commands, input, 16, written);
      for (int split : new int[] {1, 7, 1_000}) {
        for (int pageSize : new int[] {1, 1_024}) {
          Map<String, LookupTable> writtenAgain = new HashMap<>();
          assertThat(answer(commands, resplit(input, split), pageSize, writtenAgain))
              .as(
                  "seed %d, input pages of %d, answer pages of %d: %s",
                  seed, split, pageSize, commands)
              .isEqualTo(expected);
          assertThat(writtenAgain).as("seed %d: %s", seed, commands).isEqualTo(written);
        }
      }
    }
  }

  /**
   * Without limits a transaction per value of its field, every event with it included; with {@code
   * maxevents=N}, a value's events in transactions of at most N, ceil(count / N) of them (a
   * transaction closes when full); the duration is the span of its events' times. Events here all
   * have a time: one without makes the duration reach back to the epoch (its time taken as 0 — an
   * event always has a time in Splunk; left open, in session 27's oracles8 report).
   */
  @Test
  void transactionsGroupAsPlainJavaDoes() {
    for (long seed = 0; seed < 30; seed++) {
      List<Page> input = TimedRandomPages.of(new Random(seed), true);
      List<Map<String, Object>> rows = TestPages.rows(input);
      Map<Object, Long> counts = new java.util.TreeMap<>();
      Map<Object, long[]> times = new HashMap<>();
      Map<Object, Long> timed = new java.util.TreeMap<>();
      for (Map<String, Object> row : rows) {
        Object t = row.get("t");
        if (t == null) {
          continue;
        }
        counts.merge(t, 1L, Long::sum);
        if (row.get("_time") instanceof Long time) {
          timed.merge(t, 1L, Long::sum);
          times.merge(
              t,
              new long[] {time, time},
              (a, b) -> new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
        }
      }
      List<Map<String, Object>> expected = new ArrayList<>();
      timed.forEach(
          (t, count) -> {
            Map<String, Object> row = new java.util.TreeMap<>();
            row.put("t", t);
            row.put("eventcount", count);
            long[] span = times.get(t);
            row.put(
                "duration", span == null ? 0L : java.math.BigDecimal.valueOf(span[1] - span[0], 6));
            expected.add(row);
          });
      assertThat(
              sortedByT(
                  answer(
                      "transaction t | table t, eventcount, duration",
                      List.of(
                          TestPages.of(
                              rows.stream().filter(row -> row.get("_time") != null).toList())),
                      16,
                      new HashMap<>())))
          .as("seed %d", seed)
          .isEqualTo(PlainStats.canonical(expected));
      Map<Object, List<Long>> full = new java.util.TreeMap<>();
      for (Map<String, Object> row :
          answer("transaction t maxevents=3 | table t, eventcount", input, 16, new HashMap<>())) {
        full.computeIfAbsent(row.get("t"), k -> new ArrayList<>())
            .add(Long.parseLong((String) row.get("eventcount")));
      }
      assertThat(full.keySet()).as("seed %d", seed).hasSize(counts.size());
      counts.forEach(
          (t, count) -> {
            List<Long> sizes = full.get(PlainStats.canonicalValue(t));
            assertThat(sizes.stream().mapToLong(Long::longValue).sum()).isEqualTo(count);
            assertThat(sizes).hasSize((int) ((count + 2) / 3)).allMatch(size -> size <= 3);
          });
    }
  }

  private static List<Map<String, Object>> sortedByT(List<Map<String, Object>> rows) {
    return rows.stream()
        .map(row -> (Map<String, Object>) new java.util.TreeMap<>(row))
        .sorted(java.util.Comparator.comparing(row -> String.valueOf(row.get("t"))))
        .toList();
  }

  /**
   * {@code bin <field> bins=N [start=] [end=]}: the width is the smallest power of ten whose ranges
   * {@code [k·w, (k+1)·w)} over the values (and start/end) number at most N — Quarry's choice;
   * Splunk's reference says only "the maximum number of bins" — each value becomes its range {@code
   * a-b}.
   */
  @Test
  void binsAsPlainJavaComputesThem() {
    for (long seed = 0; seed < 30; seed++) {
      List<Page> input = TimedRandomPages.of(new Random(seed), true);
      List<Map<String, Object>> rows = TestPages.rows(input);
      assertThat(answer("bin n bins=4", input, 16, new HashMap<>()))
          .as("seed %d", seed)
          .isEqualTo(PlainStats.canonical(binned(rows, "n", "n", 4, null, null)));
      assertThat(answer("bin d bins=10 AS b", input, 16, new HashMap<>()))
          .as("seed %d", seed)
          .isEqualTo(PlainStats.canonical(binned(rows, "d", "b", 10, null, null)));
      Map<Object, Long> counts = new java.util.TreeMap<>();
      binned(rows, "n", "nb", 4, 0.0, 100.0).stream()
          .filter(row -> row.get("nb") != null)
          .forEach(row -> counts.merge(row.get("nb"), 1L, Long::sum));
      Map<Object, Long> answered = new java.util.TreeMap<>();
      answer("bin n bins=4 start=0 end=100 AS nb | stats count by nb", input, 16, new HashMap<>())
          .forEach(row -> answered.put(row.get("nb"), Long.parseLong((String) row.get("count"))));
      assertThat(answered).as("seed %d", seed).isEqualTo(counts);
    }
  }

  /**
   * The rows with {@code field}'s number binned into {@code as} ({@link
   * #binsAsPlainJavaComputesThem}).
   */
  private static List<Map<String, Object>> binned(
      List<Map<String, Object>> rows, String field, String as, int bins, Double start, Double end) {
    double low = start == null ? Double.POSITIVE_INFINITY : start;
    double high = end == null ? Double.NEGATIVE_INFINITY : end;
    for (Map<String, Object> row : rows) {
      if (row.get(field) instanceof Number number) {
        low = Math.min(low, number.doubleValue());
        high = Math.max(high, number.doubleValue());
      }
    }
    // one value (no range): ranges of 1, Quarry's choice
    java.math.BigDecimal width = java.math.BigDecimal.ONE.scaleByPowerOfTen(high > low ? -6 : 0);
    while (Math.floor(high / width.doubleValue()) - Math.floor(low / width.doubleValue()) + 1
        > bins) {
      width = width.scaleByPowerOfTen(1);
    }
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      Map<String, Object> copy = new LinkedHashMap<>(row);
      if (row.get(field) instanceof Number number) {
        java.math.BigDecimal from =
            width.multiply(
                java.math.BigDecimal.valueOf(
                    Math.floor(number.doubleValue() / width.doubleValue())));
        copy.put(
            as,
            from.stripTrailingZeros().toPlainString()
                + "-"
                + from.add(width).stripTrailingZeros().toPlainString());
      } else {
        copy.remove(as);
      }
      out.add(copy);
    }
    return out;
  }

  /**
   * {@code fieldsummary}: a row per field with a value, its {@code count} (rows with it) and over
   * the whole numbers of {@code n} {@code numeric_count}, {@code min} and {@code max}.
   */
  @Test
  void fieldSummaryCountsAsPlainJavaDoes() {
    for (long seed = 0; seed < 30; seed++) {
      List<Page> input = TimedRandomPages.of(new Random(seed), true);
      List<Map<String, Object>> rows = TestPages.rows(input);
      Map<String, Long> counts = new java.util.TreeMap<>();
      rows.forEach(row -> row.keySet().forEach(name -> counts.merge(name, 1L, Long::sum)));
      Map<String, Long> answered = new java.util.TreeMap<>();
      Map<String, Object> n = null;
      for (Map<String, Object> row : answer("fieldsummary", input, 16, new HashMap<>())) {
        answered.put((String) row.get("field"), Long.parseLong((String) row.get("count")));
        if ("n".equals(row.get("field"))) {
          n = row;
        }
      }
      assertThat(answered).as("seed %d", seed).isEqualTo(counts);
      List<Long> numbers =
          rows.stream()
              .map(row -> row.get("n"))
              .filter(v -> v instanceof Long)
              .map(v -> (Long) v)
              .toList();
      if (!numbers.isEmpty()) {
        assertThat(n).as("seed %d", seed).isNotNull();
        assertThat(n.get("numeric_count")).isEqualTo(Long.toString(numbers.size()));
        assertThat(n.get("min"))
            .isEqualTo(PlainStats.canonicalValue(numbers.stream().min(Long::compare).get()));
        assertThat(n.get("max"))
            .isEqualTo(PlainStats.canonicalValue(numbers.stream().max(Long::compare).get()));
      }
    }
  }

  /**
   * {@code outputlookup}: the rows pass unchanged, and the table written has a row per input row, a
   * column per field, each cell the field's value as text (several values newline-joined).
   */
  @Test
  void outputLookupWritesTheRowsAsPlainJavaDoes() {
    for (long seed = 0; seed < 30; seed++) {
      List<Page> input = TimedRandomPages.of(new Random(seed), true);
      List<Map<String, Object>> rows = TestPages.rows(input);
      Map<String, LookupTable> written = new HashMap<>();
      assertThat(answer("outputlookup written.csv", input, 16, written))
          .as("seed %d", seed)
          .isEqualTo(PlainStats.canonical(rows));
      LookupTable table = written.get("written.csv");
      assertThat(table.rows()).as("seed %d", seed).hasSize(rows.size());
      for (int r = 0; r < rows.size(); r++) {
        for (String name : List.of("n", "t", "mv", "extra")) {
          Object value = rows.get(r).get(name);
          int column = table.columns().indexOf(name);
          String cell = column < 0 ? "" : table.rows().get(r).get(column);
          assertThat(cell == null ? "" : cell)
              .as("seed %d row %d %s", seed, r, name)
              .isEqualTo(
                  value == null
                      ? ""
                      : value instanceof List<?> list
                          ? String.join("\n", list.stream().map(String::valueOf).toList())
                          : String.valueOf(value));
        }
      }
      assertThat(
              answer(
                  "eval x=mv | outputlookup written.csv | stats count", input, 16, new HashMap<>()))
          .isEqualTo(List.of(Map.of("count", Integer.toString(rows.size()))));
    }
  }

  /**
   * A search of bare words over events matches each event's {@code _raw} (here {@link #MATCHER}: a
   * case-insensitive substring, as the server's tokenized match for these lines), computed in plain
   * Java.
   */
  @Test
  void rawTextSearchesMatchAsPlainJavaDoes() {
    for (long seed = 0; seed < 30; seed++) {
      List<Page> input = TimedRandomPages.of(new Random(seed), true);
      List<Map<String, Object>> rows = TestPages.rows(input);
      Map<Object, Long> counts = new java.util.TreeMap<>();
      rows.stream()
          .filter(row -> raw(row).contains("line") && row.get("t") != null)
          .forEach(row -> counts.merge(PlainStats.canonicalValue(row.get("t")), 1L, Long::sum));
      Map<Object, Long> answered = new java.util.TreeMap<>();
      answer("search line | stats count by t", input, 16, new HashMap<>())
          .forEach(row -> answered.put(row.get("t"), Long.parseLong((String) row.get("count"))));
      assertThat(answered).as("seed %d", seed).isEqualTo(counts);
      assertThat(
              answer(
                  "where n > 0 | search \"line 1\" OR t=v1 | table n, t, _raw",
                  input,
                  16,
                  new HashMap<>()))
          .as("seed %d", seed)
          .isEqualTo(
              PlainStats.canonical(
                  only(
                      rows.stream()
                          .filter(row -> row.get("n") instanceof Long n && n > 0)
                          .filter(row -> raw(row).contains("line 1") || "v1".equals(row.get("t")))
                          .toList(),
                      List.of("n", "t", "_raw"))));
      List<Map<String, Object>> without = new ArrayList<>();
      for (Map<String, Object> row : rows) {
        if (!raw(row).contains("line")) {
          Map<String, Object> copy = new LinkedHashMap<>(row);
          if (row.get("n") != null) {
            copy.put("x", row.get("n"));
          }
          without.add(copy);
        }
      }
      List<Map<String, Object>> sorted = PlainOrder.sort(without, "n");
      assertThat(answer("eval x=n | search NOT line | sort n | head 4", input, 16, new HashMap<>()))
          .as("seed %d", seed)
          .isEqualTo(PlainStats.canonical(sorted.subList(0, Math.min(4, sorted.size()))));
    }
  }

  private static String raw(Map<String, Object> row) {
    return row.get("_raw") == null
        ? ""
        : ((String) row.get("_raw")).toLowerCase(java.util.Locale.ROOT);
  }

  private static List<Map<String, Object>> only(
      List<Map<String, Object>> rows, List<String> fields) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      Map<String, Object> kept = new LinkedHashMap<>();
      fields.stream().filter(row::containsKey).forEach(f -> kept.put(f, row.get(f)));
      out.add(kept);
    }
    return out;
  }

  /** The input's rows again, in pages of {@code size} (each with the columns its rows hold). */
  private static List<Page> resplit(List<Page> input, int size) {
    List<Map<String, Object>> rows = TestPages.rows(input);
    List<Page> pages = new ArrayList<>();
    for (int from = 0; from < rows.size(); from += size) {
      pages.add(TestPages.of(rows.subList(from, Math.min(rows.size(), from + size))));
    }
    return pages;
  }

  /** The answer's rows, values canonical ({@link PlainStats#canonical}). */
  private static List<Map<String, Object>> answer(
      String commands, List<Page> input, int pageSize, Map<String, LookupTable> written) {
    return PlainStats.canonical(TestPages.rows(reduce(commands, input, pageSize, written)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"transaction t", "fieldsummary", "transaction mv mvlist=true"})
  void aColumnKeepsOneTypeAcrossTheAnswersPages(String commands) {
    for (long seed = 0; seed < 30; seed++) {
      Map<String, DataType> types = new HashMap<>();
      for (Page page :
          reduce(commands, TimedRandomPages.of(new Random(seed), true), 2, new HashMap<>())) {
        for (int c = 0; c < page.schema().size(); c++) {
          var column = page.schema().column(c);
          DataType first = types.putIfAbsent(column.name(), column.type());
          assertThat(first == null ? column.type() : first)
              .as("seed %d: %s, column %s", seed, commands, column.name())
              .isEqualTo(column.type());
        }
      }
    }
  }

  @Test
  void transactionCountsWhatItHoldsAndReleasesIt() {
    MemoryAccount account = MemoryAccount.unbounded("test");
    Evaluator evaluator =
        new Evaluator(NOW, ZoneOffset.UTC)
            .withResources(new SearchResources(account, () -> false, w -> {}));
    List<Command> parsed = parse("transaction t");
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        new PageReduce(parsed, evaluator, out::add, new StageStats(List.of("transaction")), 0, 16);
    assertThat(PageRun.pullHolding(reduce, TimedRandomPages.of(new Random(7), true), account))
        .as("pages held")
        .isPositive();
    assertThat(account.used()).as("released").isZero();
    assertThat(out).isNotEmpty();
  }

  @Test
  void theStagesRunOnlyWhereTheyAreExact() {
    // a bare word searches each position's _raw, which the source must then load
    assertThat(ReduceCoverage.supports(parse("transaction t startswith=\"login\""))).isTrue();
    assertThat(ReduceCoverage.supports(parse("transaction t startswith=eval(searchmatch(\"x\"))")))
        .isTrue();
    assertThat(InputFields.of(parse("transaction t endswith=\"out n>1\""), List.of()))
        .containsExactlyInAnyOrder("t", "n", "_raw", "_time");
    // a search of bare words: over events only, while _raw is still each event's own
    assertThat(ReduceCoverage.supports(parse("search line"))).isFalse();
    assertThat(ReduceCoverage.supportsOverEvents(parse("where n>0 | search line | head 2")))
        .isTrue();
    assertThat(ReduceCoverage.supportsOverEvents(parse("eval _raw=t | search line"))).isFalse();
    assertThat(ReduceCoverage.supportsOverEvents(parse("rename t AS _raw | search line")))
        .isFalse();
    // after an aggregation no row is an event: a bare word matches none there, on rows and pages
    // (PageReduce's over-results search; PageReduceTest compares them)
    assertThat(ReduceCoverage.supportsOverEvents(parse("stats count by t | search line"))).isTrue();
    assertThat(ReduceCoverage.supportsOverResults(parse("search line"))).isTrue();
    // the rows append brings in are made from pages, no events either (ResultsCoverageTest)
    assertThat(ReduceCoverage.supportsOverResults(parse("append [makeresults] | search line")))
        .isTrue();
    assertThat(PageChain.supportsOverEvents(parse("lookup x k | search line"))).isFalse();
    assertThat(InputFields.of(parse("search line n>1"), List.of()))
        .containsExactlyInAnyOrder("_raw", "n");
    // they read every field: never over a source that loads only the fields read
    assertThat(ReduceCoverage.supportsOverReadFields(parse("fieldsummary"))).isFalse();
    assertThat(ReduceCoverage.supportsOverReadFields(parse("outputlookup t.csv"))).isFalse();
    assertThat(ReduceCoverage.supportsOverReadFields(parse("transaction t | table t, eventcount")))
        .isTrue();
    assertThat(InputFields.of(parse("transaction t startswith=eval(n>1) | table d"), List.of("d")))
        .containsExactlyInAnyOrder("d", "t", "n", "_time");
  }

  private static List<Command> parse(String commands) {
    Query parsed = new Parser(CommandRegistry.builtIns()).parse("* | " + commands);
    return parsed.commands().subList(1, parsed.commands().size());
  }

  /** How a term matches raw text here: a case-insensitive substring (the server tokenizes). */
  private static final RawTermMatcher MATCHER =
      (raw, term) -> raw.toLowerCase(java.util.Locale.ROOT).contains(term.lowerCase());

  private static Evaluator evaluator(Map<String, LookupTable> written) {
    return new Evaluator(NOW, ZoneOffset.UTC, LookupTable.Source.NONE, written::put)
        .withRawTermMatcher(MATCHER);
  }

  private static List<Page> reduce(
      String commands, List<Page> input, int pageSize, Map<String, LookupTable> written) {
    List<Command> parsed = parse(commands);
    assertThat(ReduceCoverage.supportsOverEvents(parsed)).as(commands).isTrue();
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        new PageReduce(
            parsed,
            evaluator(written),
            out::add,
            new StageStats(parsed.stream().map(Command::name).toList()),
            0,
            pageSize);
    PageRun.pull(reduce, input);
    return out;
  }
}
