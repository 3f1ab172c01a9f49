package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Query;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.exec.PlainStreams.StreamOptions;
import io.quarry.ql.parser.Parser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * {@code eventstats} and {@code streamstats} on pages ({@link EventStatsOperator}, {@link
 * StreamStatsOperator} in a {@link PageReduce}), {@code accum}, {@code delta}, {@code autoregress},
 * {@code trendline} and {@code filldown} driven on pages, and {@code stats} as a reduce stage,
 * against a plain Java computation of each ({@link PlainStreams}, {@link PlainStats}: no engine of
 * ours) over the same input: random pages (whole numbers, decimals, numbers as text, text, nulls,
 * multivalues, a column some pages lack, {@code _time} mostly descending and sometimes missing),
 * every result equal row by row, numbers by value (the hand-computed tests — {@code
 * StreamingStatsTest}, {@code ReportingCommandsTest}, the golden files — pin the types).
 */
class StatefulStagesTest {
  private static final Evaluator EVALUATOR =
      new Evaluator(Instant.parse("2026-01-05T00:00:00Z"), ZoneOffset.UTC);

  private static final Predicate<Map<String, Object>> NEVER = row -> false;

  /** Each command and its plain Java answer over the input rows. */
  private static Map<String, Function<List<Map<String, Object>>, List<Map<String, Object>>>>
      oracles() {
    Map<String, Function<List<Map<String, Object>>, List<Map<String, Object>>>> oracles =
        new LinkedHashMap<>();
    StreamOptions defaults = StreamOptions.defaults();
    oracles.put("eventstats count", rows -> PlainStreams.eventstats(rows, "count", List.of()));
    oracles.put(
        "eventstats count, sum(n), avg(d) by t",
        rows -> PlainStreams.eventstats(rows, "count, sum(n), avg(d)", List.of("t")));
    oracles.put(
        "eventstats max(n) AS n, dc(t) by mv",
        rows -> PlainStreams.eventstats(rows, "max(n) AS n, dc(t)", List.of("mv")));
    oracles.put(
        "eventstats values(t), list(n), min(d), range(n) by extra",
        rows ->
            PlainStreams.eventstats(
                rows, "values(t), list(n), min(d), range(n)", List.of("extra")));
    oracles.put(
        "eventstats median(d), stdev(n), mode(t), first(n), latest(t) by n, t",
        rows ->
            PlainStreams.eventstats(
                rows, "median(d), stdev(n), mode(t), first(n), latest(t)", List.of("n", "t")));
    oracles.put(
        "eventstats count AS extra by mv, t",
        rows -> PlainStreams.eventstats(rows, "count AS extra", List.of("mv", "t")));
    oracles.put(
        "eventstats count AS t by mv",
        rows -> PlainStreams.eventstats(rows, "count AS t", List.of("mv")));
    oracles.put(
        "eventstats earliest(_time) AS _time, count(d) by t",
        rows -> PlainStreams.eventstats(rows, "earliest(_time) AS _time, count(d)", List.of("t")));
    oracles.put(
        "streamstats count AS d",
        rows -> PlainStreams.streamstats(rows, "count AS d", List.of(), defaults));
    oracles.put(
        "streamstats count", rows -> PlainStreams.streamstats(rows, "count", List.of(), defaults));
    oracles.put(
        "streamstats count, sum(n), avg(d) by t",
        rows -> PlainStreams.streamstats(rows, "count, sum(n), avg(d)", List.of("t"), defaults));
    oracles.put(
        "streamstats current=false count, max(n) AS n, values(t) by mv",
        rows ->
            PlainStreams.streamstats(
                rows, "count, max(n) AS n, values(t)", List.of("mv"), defaults.current(false)));
    oracles.put(
        "streamstats window=3 sum(n), dc(t)",
        rows ->
            PlainStreams.streamstats(rows, "sum(n), dc(t)", List.of(), defaults.window(3, true)));
    oracles.put(
        "streamstats window=2 global=false count, avg(d), last(t) by t",
        rows ->
            PlainStreams.streamstats(
                rows, "count, avg(d), last(t)", List.of("t"), defaults.window(2, false)));
    oracles.put(
        "streamstats window=4 current=false list(n) by extra",
        rows ->
            PlainStreams.streamstats(
                rows, "list(n)", List.of("extra"), defaults.window(4, true).current(false)));
    oracles.put(
        "streamstats window=3 global=false current=false sum(n) AS s by t",
        rows ->
            PlainStreams.streamstats(
                rows, "sum(n) AS s", List.of("t"), defaults.window(3, false).current(false)));
    oracles.put(
        "streamstats time_window=30s count, sum(n) by t",
        rows ->
            PlainStreams.streamstats(
                rows, "count, sum(n)", List.of("t"), defaults.timeWindow(30_000_000L)));
    oracles.put(
        "streamstats reset_on_change=true count, range(d) by extra",
        rows ->
            PlainStreams.streamstats(
                rows, "count, range(d)", List.of("extra"), defaults.resets(true, NEVER, NEVER)));
    oracles.put(
        "streamstats reset_before=\"(n>10)\" count, sum(n)",
        rows ->
            PlainStreams.streamstats(
                rows,
                "count, sum(n)",
                List.of(),
                defaults.resets(false, row -> row.get("n") instanceof Long n && n > 10, NEVER)));
    oracles.put(
        "streamstats reset_after=\"(isnull(extra))\" count by t",
        rows ->
            PlainStreams.streamstats(
                rows,
                "count",
                List.of("t"),
                defaults.resets(false, NEVER, row -> row.get("extra") == null)));
    oracles.put(
        "streamstats count AS extra by mv",
        rows -> PlainStreams.streamstats(rows, "count AS extra", List.of("mv"), defaults));
    oracles.put(
        "streamstats latest(_time) AS _time, earliest(n) by t",
        rows ->
            PlainStreams.streamstats(
                rows, "latest(_time) AS _time, earliest(n)", List.of("t"), defaults));
    oracles.put(
        "eval x=n*2 | streamstats sum(x) AS sx by t | eventstats max(sx) AS top | head 20",
        rows -> {
          List<Map<String, Object>> evaluated = new ArrayList<>();
          for (Map<String, Object> row : rows) {
            Map<String, Object> copy = new LinkedHashMap<>(row);
            if (row.get("n") instanceof Long n) {
              copy.put("x", n * 2);
            }
            evaluated.add(copy);
          }
          List<Map<String, Object>> out =
              PlainStreams.eventstats(
                  PlainStreams.streamstats(evaluated, "sum(x) AS sx", List.of("t"), defaults),
                  "max(sx) AS top",
                  List.of());
          return out.subList(0, Math.min(20, out.size()));
        });
    oracles.put("accum n", rows -> PlainStreams.accum(rows, "n", "n"));
    oracles.put(
        "stats count, avg(d), values(t) by mv",
        rows -> PlainStats.stats(rows, "count, avg(d), values(t)", List.of("mv")));
    oracles.put(
        "streamstats count AS c by t | stats max(c) AS most, dc(n) by t | stats count by most",
        rows ->
            PlainStats.stats(
                PlainStats.stats(
                    PlainStreams.streamstats(rows, "count AS c", List.of("t"), defaults),
                    "max(c) AS most, dc(n)",
                    List.of("t")),
                "count",
                List.of("most")));
    oracles.put("stats count", rows -> PlainStats.stats(rows, "count", List.of()));
    oracles.put(
        "where n > 100 | stats count, sum(n)",
        rows ->
            PlainStats.stats(
                rows.stream().filter(r -> r.get("n") instanceof Long n && n > 100).toList(),
                "count, sum(n)",
                List.of()));
    oracles.put(
        "accum d AS total | accum n AS nt",
        rows -> PlainStreams.accum(PlainStreams.accum(rows, "d", "total"), "n", "nt"));
    oracles.put(
        "delta n AS dn | delta d p=2",
        rows -> PlainStreams.delta(PlainStreams.delta(rows, "n", "dn", 1), "d", "delta(d)", 2));
    oracles.put("autoregress n p=1-3", rows -> PlainStreams.autoregress(rows, "n", 1, 3));
    oracles.put(
        "trendline sma3(n) AS s, ema2(d)",
        rows ->
            PlainStreams.trendline(
                PlainStreams.trendline(rows, "sma", 3, "n", "s"), "ema", 2, "d", "ema2(d)"));
    oracles.put(
        "filldown n, t, extra", rows -> PlainStreams.filldown(rows, List.of("n", "t", "extra")));
    oracles.put(
        "eval y=if(n>3, n, null()) | filldown y | accum y",
        rows -> {
          List<Map<String, Object>> evaluated = new ArrayList<>();
          for (Map<String, Object> row : rows) {
            Map<String, Object> copy = new LinkedHashMap<>(row);
            if (row.get("n") instanceof Long n && n > 3) {
              copy.put("y", n);
            }
            evaluated.add(copy);
          }
          return PlainStreams.accum(PlainStreams.filldown(evaluated, List.of("y")), "y", "y");
        });
    oracles.put(
        "filldown extra | streamstats count by extra | accum count",
        rows ->
            PlainStreams.accum(
                PlainStreams.streamstats(
                    PlainStreams.filldown(rows, List.of("extra")),
                    "count",
                    List.of("extra"),
                    defaults),
                "count",
                "count"));
    return oracles;
  }

  @Test
  void pagesAnswerAsPlainJavaComputesThem() {
    Map<String, Function<List<Map<String, Object>>, List<Map<String, Object>>>> oracles = oracles();
    for (long seed = 0; seed < 25; seed++) {
      List<Page> input = TimedRandomPages.of(new Random(seed), false);
      List<Map<String, Object>> rows = TestPages.rows(input);
      for (var entry : oracles.entrySet()) {
        assertThat(PlainStats.canonical(TestPages.rows(onPages(entry.getKey(), input))))
            .as("seed %d: %s", seed, entry.getKey())
            .isEqualTo(PlainStats.canonical(entry.getValue().apply(rows)));
      }
    }
  }

  /**
   * {@code eventstats} and {@code streamstats} on pages against a plain Java computation over the
   * same random rows (no engine of ours): per row with a {@code t}, its group's count and sum of
   * {@code n} (eventstats: the whole input's; streamstats: the rows so far, this one included), in
   * input order, every other field kept.
   */
  @Test
  void groupStatisticsAsPlainJavaComputesThem() {
    for (long seed = 0; seed < 25; seed++) {
      List<Page> input = TimedRandomPages.of(new Random(seed), false);
      List<java.util.Map<String, Object>> rows = TestPages.rows(input);
      java.util.Map<Object, Long> counts = new java.util.HashMap<>();
      java.util.Map<Object, Long> sums = new java.util.HashMap<>();
      for (java.util.Map<String, Object> row : rows) {
        if (row.containsKey("t")) {
          counts.merge(row.get("t"), 1L, Long::sum);
          if (row.get("n") instanceof Long n) {
            sums.merge(row.get("t"), n, Long::sum);
          }
        }
      }
      List<java.util.Map<String, Object>> whole =
          TestPages.rows(onPages("eventstats count AS c, sum(n) AS s by t", input));
      List<java.util.Map<String, Object>> running =
          TestPages.rows(onPages("streamstats count AS c, sum(n) AS s by t", input));
      assertThat(whole).as("seed %d", seed).hasSameSizeAs(rows);
      assertThat(running).as("seed %d", seed).hasSameSizeAs(rows);
      java.util.Map<Object, Long> countsSoFar = new java.util.HashMap<>();
      java.util.Map<Object, Long> sumsSoFar = new java.util.HashMap<>();
      for (int i = 0; i < rows.size(); i++) {
        java.util.Map<String, Object> row = rows.get(i);
        for (java.util.Map<String, Object> answer : List.of(whole.get(i), running.get(i))) {
          for (String field : List.of("_time", "n", "d", "t", "mv", "extra")) {
            assertThat(answer.get(field))
                .as("seed %d row %d %s", seed, i, field)
                .isEqualTo(row.get(field));
          }
        }
        Object t = row.get("t");
        if (t == null) {
          continue;
        }
        countsSoFar.merge(t, 1L, Long::sum);
        if (row.get("n") instanceof Long n) {
          sumsSoFar.merge(t, n, Long::sum);
        }
        assertThat(whole.get(i).get("c")).as("seed %d row %d", seed, i).isEqualTo(counts.get(t));
        assertThat(whole.get(i).get("s")).as("seed %d row %d", seed, i).isEqualTo(sums.get(t));
        assertThat(running.get(i).get("c"))
            .as("seed %d row %d", seed, i)
            .isEqualTo(countsSoFar.get(t));
        assertThat(running.get(i).get("s"))
            .as("seed %d row %d", seed, i)
            .isEqualTo(sumsSoFar.get(t));
      }
    }
  }

  @Test
  void eventStatsCountsWhatItHoldsAndReleasesIt() {
    MemoryAccount account = MemoryAccount.unbounded("test");
    Evaluator evaluator =
        new Evaluator(Instant.parse("2026-01-05T00:00:00Z"), ZoneOffset.UTC)
            .withResources(new SearchResources(account, () -> false, w -> {}));
    List<Command> parsed = parse("eventstats count by t");
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        new PageReduce(parsed, evaluator, out::add, new StageStats(List.of("eventstats")), 0, 16);
    assertThat(PageRun.pullHolding(reduce, TimedRandomPages.of(new Random(7), false), account))
        .as("pages held")
        .isPositive();
    assertThat(account.used()).as("released").isZero();
    assertThat(out).isNotEmpty();
  }

  private static List<Command> parse(String commands) {
    Query parsed = new Parser(CommandRegistry.builtIns()).parse("* | " + commands);
    return parsed.commands().subList(1, parsed.commands().size());
  }

  private static List<Page> onPages(String commands, List<Page> input) {
    List<Command> parsed = parse(commands);
    assertThat(ReduceCoverage.supports(parsed)).as(commands).isTrue();
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        new PageReduce(
            parsed,
            EVALUATOR,
            out::add,
            new StageStats(parsed.stream().map(Command::name).toList()),
            0,
            16);
    PageRun.pull(reduce, input);
    return out;
  }
}
