package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Query;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The commands after an aggregation on pages ({@link PageReduce}) over random pages (whole numbers,
 * decimals, numbers as text, text, nulls, multivalues, a column some pages lack): {@code sort},
 * {@code head}, {@code dedup}, {@code reverse} and {@code tail} against a plain Java computation
 * ({@link PlainOrder}); the plugin commands and the pages' layouts still against the same commands
 * as row operators (every result equal row by row and column by column) — they need oracles of
 * their own before the row engine can go (docs/design/row-engine-retirement.md, step 3).
 */
class PageReduceTest {
  private static final Evaluator EVALUATOR =
      new Evaluator(Instant.parse("2026-01-05T00:00:00Z"), ZoneOffset.UTC);

  /** Each command and its plain Java answer ({@link PlainOrder}) over the input rows. */
  private static Map<String, UnaryOperator<List<Map<String, Object>>>> orderOracles() {
    Map<String, UnaryOperator<List<Map<String, Object>>>> oracles = new LinkedHashMap<>();
    for (String sort :
        List.of("-n", "n, -t", "num(t)", "str(n)", "7 -d, n", "limit=0 t", "-mv", "t")) {
      oracles.put("sort " + sort, rows -> PlainOrder.sort(rows, sort));
    }
    oracles.put("head 5", rows -> rows.subList(0, Math.min(5, rows.size())));
    oracles.put("head 0", rows -> List.of());
    oracles.put("sort -n | head 3", rows -> head(PlainOrder.sort(rows, "-n"), 3));
    oracles.put("head 40 | sort t | head 7", rows -> head(PlainOrder.sort(head(rows, 40), "t"), 7));
    oracles.put(
        "eval x=n*2 | where x>10 | sort -x | head 20",
        rows -> {
          List<Map<String, Object>> kept = new ArrayList<>();
          for (Map<String, Object> row : rows) {
            if (row.get("n") instanceof Long n && n * 2 > 10) {
              Map<String, Object> copy = new LinkedHashMap<>(row);
              copy.put("x", n * 2);
              kept.add(copy);
            }
          }
          return head(PlainOrder.sort(kept, "-x"), 20);
        });
    oracles.put(
        "sort d | fields t, n", rows -> only(PlainOrder.sort(rows, "d"), List.of("t", "n")));
    oracles.put(
        "rename n AS m | sort -m | table m, t",
        rows -> {
          List<Map<String, Object>> renamed = new ArrayList<>();
          for (Map<String, Object> row : rows) {
            Map<String, Object> copy = new LinkedHashMap<>(row);
            Object n = copy.remove("n");
            if (n != null) {
              copy.put("m", n);
            }
            renamed.add(copy);
          }
          return only(PlainOrder.sort(renamed, "-m"), List.of("m", "t"));
        });
    oracles.put(
        "where isnotnull(extra) | sort extra",
        rows ->
            PlainOrder.sort(rows.stream().filter(r -> r.get("extra") != null).toList(), "extra"));
    oracles.put("sort -mv | head 12", rows -> head(PlainOrder.sort(rows, "-mv"), 12));
    oracles.put("dedup t", rows -> PlainOrder.dedup(rows, 1, List.of("t"), false, false));
    oracles.put("dedup 2 n", rows -> PlainOrder.dedup(rows, 2, List.of("n"), false, false));
    oracles.put(
        "dedup mv keepempty=true", rows -> PlainOrder.dedup(rows, 1, List.of("mv"), true, false));
    oracles.put(
        "dedup extra keepempty=true | head 9",
        rows -> head(PlainOrder.dedup(rows, 1, List.of("extra"), true, false), 9));
    oracles.put(
        "dedup t consecutive=true", rows -> PlainOrder.dedup(rows, 1, List.of("t"), false, true));
    oracles.put(
        "dedup 2 n consecutive=true", rows -> PlainOrder.dedup(rows, 2, List.of("n"), false, true));
    oracles.put(
        "dedup t sortby -n",
        rows ->
            PlainOrder.sort(PlainOrder.dedup(rows, 1, List.of("t"), false, false), "limit=0 -n"));
    // a last lone d is sort's "reverse the order", not the field d
    oracles.put(
        "dedup n, t sortby +num(t), d",
        rows ->
            PlainOrder.sort(
                PlainOrder.dedup(rows, 1, List.of("n", "t"), false, false), "limit=0 num(t), d"));
    oracles.put(
        "dedup mv, t | sort -d",
        rows -> PlainOrder.sort(PlainOrder.dedup(rows, 1, List.of("mv", "t"), false, false), "-d"));
    // reverse: the rows backwards; tail N: the last N, the last first (Splunk's tail)
    oracles.put("reverse | head 4", rows -> head(reverse(rows), 4));
    oracles.put("tail 40 | sort n", rows -> PlainOrder.sort(tail(rows, 40), "n"));
    oracles.put("head 20 | reverse | tail 5", rows -> tail(reverse(head(rows, 20)), 5));
    oracles.put(
        "reverse | dedup t | reverse",
        rows -> reverse(PlainOrder.dedup(reverse(rows), 1, List.of("t"), false, false)));
    oracles.put("tail 3", rows -> tail(rows, 3));
    oracles.put("tail", rows -> tail(rows, 10));
    oracles.put(
        "where n > 0 | tail 25",
        rows ->
            tail(rows.stream().filter(r -> r.get("n") instanceof Long n && n > 0).toList(), 25));
    oracles.put("head 20 | reverse", rows -> reverse(head(rows, 20)));
    return oracles;
  }

  private static List<Map<String, Object>> reverse(List<Map<String, Object>> rows) {
    List<Map<String, Object>> reversed = new ArrayList<>(rows);
    java.util.Collections.reverse(reversed);
    return reversed;
  }

  private static List<Map<String, Object>> tail(List<Map<String, Object>> rows, int count) {
    return reverse(rows.subList(Math.max(0, rows.size() - count), rows.size()));
  }

  private static List<Map<String, Object>> head(List<Map<String, Object>> rows, int count) {
    return rows.subList(0, Math.min(count, rows.size()));
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

  /**
   * {@code sort}, {@code head}, {@code dedup}, {@code reverse} and {@code tail} (with their options
   * and after a filter, an eval, a rename) on pages against a plain Java computation ({@link
   * PlainOrder}) over the same random pages: the same rows in the same order, values compared by
   * value.
   */
  @Test
  void sortsHeadsAndDedupsAsPlainJavaDoes() {
    Map<String, UnaryOperator<List<Map<String, Object>>>> oracles = orderOracles();
    for (long seed = 0; seed < 20; seed++) {
      List<Page> input = randomPages(new Random(seed));
      List<Map<String, Object>> rows = TestPages.rows(input);
      for (var entry : oracles.entrySet()) {
        assertThat(PlainStats.canonical(TestPages.rows(onPages(entry.getKey(), input, 16))))
            .as("seed %d: %s", seed, entry.getKey())
            .isEqualTo(PlainStats.canonical(entry.getValue().apply(rows)));
      }
    }
  }

  /**
   * Plugin commands over the row adapter's batch of the rows (one page here: fewer rows than a
   * batch), as the ordered side gives them (an aggregation's answer, a generator's, a table's
   * columns).
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "accum n AS total",
        "delta d AS dd p=2 | sort -dd",
        "autoregress t p=1-2",
        "trendline sma2(n) AS s",
        "filldown extra",
        "return 3 t n",
        "addcoltotals labelfield=t",
        "sort -d | head 20 | accum n",
        "fillnull value=X",
        "addtotals",
        "foreach n d [eval <<FIELD>>=<<FIELD>>*2] | head 25",
        "format",
        "mvcombine t",
        "fillnull | sort -n | head 10",
        "eval x=n+1 | transpose 5 | sort column",
      })
  void pluginCommandsAnswerAsRowsDo(String commands) {
    for (long seed = 0; seed < 20; seed++) {
      List<Page> input = onePage(randomPages(new Random(seed)));
      assertThat(PipelineTest.table(byName(onPages(commands, input, 16))))
          .as("seed %d: %s", seed, commands)
          .isEqualTo(PipelineTest.table(byName(onRows(commands, input, 16))));
    }
  }

  /**
   * Plugin commands after commands that leave pages other than the row adapter's batches (a filter,
   * a sort, a deduplication, another plugin command, a stateful stage): the stream is re-paged as
   * the adapter batches rows ({@link RowPaging}) before each, over random pages of several schemas,
   * and answers as the row engine does.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "where n > 0 | fillnull value=X",
        "sort -n | fillnull",
        "dedup t | transpose 4",
        "where isnotnull(extra) | format",
        "mvcombine t | fillnull value=none",
        "accum n | filldown",
        "sort d | filldown | where isnotnull(n)",
        "where n > 2 | foreach n d [eval <<FIELD>>=<<FIELD>>+1] | fillnull value=0",
        "dedup mv | xyseries t n d",
      })
  void rebatchedPluginCommandsAnswerAsRowsDo(String commands) {
    for (long seed = 0; seed < 20; seed++) {
      List<Page> input = randomPages(new Random(seed));
      assertThat(PipelineTest.table(byName(onPages(commands, input, 16))))
          .as("seed %d: %s", seed, commands)
          .isEqualTo(PipelineTest.table(byName(onRows(commands, input, 16))));
    }
  }

  /**
   * Where a plugin command's pages are the answer, they are the row engine's pages exactly: the
   * same rows in each, the same columns in the same order, the same types ({@link RowPaging}).
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "accum n AS total",
        "fillnull value=X",
        "addcoltotals labelfield=t",
        "addtotals",
        "filldown extra | where isnotnull(n)",
        "sort -d | trendline sma2(d) AS s",
      })
  void pluginPagesAreTheRowEnginesPages(String commands) {
    for (long seed = 0; seed < 20; seed++) {
      List<Page> input = onePage(randomPages(new Random(seed)));
      assertThat(layout(byName(pages(commands, input, 16))))
          .as("seed %d: %s", seed, commands)
          .isEqualTo(layout(byName(rowPages(commands, input, 16))));
    }
  }

  /**
   * The pages with their columns in name order. A row the row engine hands a plugin command without
   * some field gets the fields the command sets on it after its own, so a page of rows lacking
   * different fields may list its columns in another order than the page engine's, which keeps the
   * input's column order (a known difference; values, rows and types are the same).
   */
  private static List<Page> byName(List<Page> pages) {
    List<Page> sorted = new ArrayList<>();
    for (Page page : pages) {
      List<Integer> order = new ArrayList<>();
      for (int c = 0; c < page.schema().size(); c++) {
        order.add(c);
      }
      order.sort(java.util.Comparator.comparing(c -> page.schema().column(c).name()));
      sorted.add(
          new Page(
              new io.quarry.plugin.api.data.Schema(
                  order.stream().map(c -> page.schema().column(c)).toList()),
              order.stream().map(page::block).toList(),
              page.positionCount()));
    }
    return sorted;
  }

  /**
   * {@code reverse} and {@code tail} give the row engine's pages exactly — the same rows in each,
   * the same columns in the same order, the same types — over random pages whose rows lack
   * different fields (their rows and order: {@link #sortsHeadsAndDedupsAsPlainJavaDoes}).
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "reverse",
        "tail 3",
        "tail 0",
        "tail",
        "where n > 0 | tail 25",
        "head 20 | reverse",
      })
  void reorderedPagesAreTheRowEnginesPages(String commands) {
    for (long seed = 0; seed < 20; seed++) {
      List<Page> input = randomPages(new Random(seed));
      assertThat(layout(pages(commands, input, 16)))
          .as("seed %d: %s", seed, commands)
          .isEqualTo(layout(rowPages(commands, input, 16)));
    }
  }

  private static List<String> layout(List<Page> pages) {
    List<String> written = new ArrayList<>();
    for (Page page : pages) {
      StringBuilder out = new StringBuilder(page.schema().columns().toString());
      for (int p = 0; p < page.positionCount(); p++) {
        out.append('\n');
        for (var block : page.blocks()) {
          out.append(block.getValues(p)).append(" | ");
        }
      }
      written.add(out.toString());
    }
    return written;
  }

  private static List<Command> parse(String commands) {
    Query parsed = new Parser(CommandRegistry.builtIns()).parse("* | " + commands);
    return parsed.commands().subList(1, parsed.commands().size());
  }

  private static List<Page> onPages(String commands, List<Page> input, int pageSize) {
    List<Page> out = pages(commands, input, pageSize);
    // the row engine's collector makes pages of pageSize rows with the columns they hold: compare
    // tables of the same rows, whatever the page boundaries
    List<Row> rows = new ArrayList<>();
    out.forEach(page -> rows.addAll(PluginOperators.rows(page)));
    return rows.isEmpty() ? List.of() : List.of(PageCollector.toPage(rows));
  }

  private static List<Page> pages(String commands, List<Page> input, int pageSize) {
    List<Command> parsed = parse(commands);
    assertThat(ReduceCoverage.supports(parsed)).as(commands).isTrue();
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        new PageReduce(
            parsed,
            EVALUATOR,
            page -> out.add(page),
            new StageStats(parsed.stream().map(Command::name).toList()),
            0,
            pageSize);
    for (Page page : input) {
      if (!reduce.add(page)) {
        break;
      }
    }
    reduce.finish();
    reduce.close();
    return out;
  }

  private static List<Page> onRows(String commands, List<Page> input, int pageSize) {
    List<Page> out = rowPages(commands, input, pageSize);
    List<Row> rows = new ArrayList<>();
    out.forEach(page -> rows.addAll(PluginOperators.rows(page)));
    return rows.isEmpty() ? List.of() : List.of(PageCollector.toPage(rows));
  }

  private static List<Page> rowPages(String commands, List<Page> input, int pageSize) {
    List<Page> out = new ArrayList<>();
    RowSink sink =
        Pipelines.build(parse(commands), new PageCollector(pageSize, out::add), EVALUATOR);
    feed:
    for (Page page : input) {
      for (Row row : PluginOperators.rows(page)) {
        if (!sink.accept(row)) {
          break feed;
        }
      }
    }
    sink.finish();
    return out;
  }

  /** The pages' rows as one page with every column any of them has (the adapter's batch). */
  private static List<Page> onePage(List<Page> pages) {
    java.util.Set<String> names = new java.util.LinkedHashSet<>();
    List<Row> rows = new ArrayList<>();
    for (Page page : pages) {
      page.schema().columns().forEach(c -> names.add(c.name()));
      rows.addAll(PluginOperators.rows(page));
    }
    return List.of(PageCollector.toPage(rows, names));
  }

  /**
   * A {@code search} of bare words over rows that are not events (an aggregation's answer, a
   * generator's): no row matches a term on rows ({@link MapRow}), whatever its fields hold — a
   * {@code _raw} set by {@code eval} included — and none does on pages ({@link
   * PageReduce#overResults}). Splunk matches such terms against the rows' field values; both
   * engines differ from it alike (ARCHITECTURE.md).
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "search alpha",
        "search NOT alpha",
        "eval _raw=t | search alpha OR n>3",
        "eval _raw=t | search NOT \"Zed\" t=*",
        "stats count by t | search NOT v1",
        "search alpha | stats count",
        "appendpipe [where n>3] | search alpha OR n>3",
        "appendpipe [stats count by t] | search v1 OR count>1",
        // a wildcard rename that can match _time: over such rows, the columns its pattern matches
        "rename * AS x_* | search alpha OR x_n>3",
        "eval _time=n | rename _t* AS t* | search NOT alpha",
        "eval _time=n | rename * AS x_* | rename x__t* AS _t*",
      })
  void bareWordsOverResultsMatchNoTermAsOnRows(String commands) {
    List<Command> parsed = parse(commands);
    assertThat(ReduceCoverage.supportsOverResults(parsed)).as(commands).isTrue();
    for (long seed = 0; seed < 20; seed++) {
      List<Page> input = randomPages(new Random(seed));
      List<Page> out = new ArrayList<>();
      PageReduce reduce =
          PageReduce.overResults(
              parsed,
              EVALUATOR,
              out::add,
              new StageStats(parsed.stream().map(Command::name).toList()),
              0,
              16);
      input.forEach(reduce::add);
      reduce.finish();
      reduce.close();
      List<Row> rows = new ArrayList<>();
      out.forEach(page -> rows.addAll(PluginOperators.rows(page)));
      assertThat(
              PipelineTest.table(rows.isEmpty() ? List.of() : List.of(PageCollector.toPage(rows))))
          .as("seed %d: %s", seed, commands)
          .isEqualTo(PipelineTest.table(onRows(commands, input, 16)));
    }
  }

  @Test
  void rowsBroughtInAreNoEventsEither() {
    // rows a subsearch or appendpipe brings in are made from pages, no events either: a page
    // stage matching no term
    for (String commands :
        List.of(
            "append [| makeresults] | search alpha",
            "join n [| makeresults] | search alpha OR n>2",
            "appendpipe [stats count] | search alpha")) {
      assertThat(ReduceCoverage.supportsOverResults(parse(commands))).as(commands).isTrue();
      assertThat(ReduceCoverage.matchesNoTerm(parse(commands), true))
          .as(commands)
          .containsExactly(false, true);
    }
  }

  @Test
  void pluginCommandsNeedTheAdaptersBatches() {
    assertThat(ReduceCoverage.supports(parse("eval x=1 | sort -n | head 5 | accum n"))).isTrue();
    // the in-order built-ins of named fields run on any pages in order (StatefulStagesTest)
    assertThat(ReduceCoverage.supports(parse("where n > 0 | accum n"))).isTrue();
    assertThat(ReduceCoverage.supports(parse("dedup t | delta n"))).isTrue();
    assertThat(ReduceCoverage.supports(parse("accum n | delta n"))).isTrue();
    assertThat(ReduceCoverage.supports(parse("sort -n | accum n"))).isTrue();
    // where the pages are no longer those batches, the stream is re-paged as them first
    assertThat(ReduceCoverage.rebatched(parse("where n > 0 | fillnull"), false))
        .containsExactly(false, true);
    assertThat(ReduceCoverage.rebatched(parse("sort -n | fillnull"), false))
        .containsExactly(false, true);
    assertThat(ReduceCoverage.rebatched(parse("fillnull | head 3 | fillnull"), false))
        .containsExactly(false, false, true);
    assertThat(
            ReduceCoverage.rebatched(
                parse("eval x=1 | sort -n | head 5 | accum n | addtotals"), false))
        .containsExactly(false, false, false, false, true);
    assertThat(ReduceCoverage.supports(parse("table n, t | format"))).isTrue();
  }

  /** 1–5 pages of 1–30 positions: n whole, d decimal, t text or numbers as text, mv, extra. */
  private static List<Page> randomPages(Random random) {
    List<Page> pages = new ArrayList<>();
    int count = 1 + random.nextInt(5);
    for (int i = 0; i < count; i++) {
      List<Map<String, Object>> rows = new ArrayList<>();
      int positions = 1 + random.nextInt(30);
      boolean withExtra = random.nextBoolean();
      for (int p = 0; p < positions; p++) {
        Map<String, Object> values = new LinkedHashMap<>();
        if (random.nextInt(8) > 0) {
          values.put("n", (long) random.nextInt(20) - 5);
        }
        if (random.nextInt(8) > 0) {
          values.put("d", random.nextInt(1000) / 8.0);
        }
        if (random.nextInt(6) > 0) {
          values.put(
              "t",
              switch (random.nextInt(3)) {
                case 0 -> Integer.toString(random.nextInt(50));
                case 1 -> "v" + random.nextInt(10);
                default -> random.nextBoolean() ? "Zed" : "alpha";
              });
        }
        if (random.nextInt(3) > 0) {
          values.put(
              "mv",
              random.nextBoolean()
                  ? List.of((long) random.nextInt(9), (long) random.nextInt(9))
                  : (Object) (long) random.nextInt(9));
        }
        if (withExtra && random.nextBoolean()) {
          values.put("extra", "e" + random.nextInt(4));
        }
        rows.add(values);
      }
      pages.add(TestPages.of(rows));
    }
    return pages;
  }
}
