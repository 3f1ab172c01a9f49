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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The commands after an aggregation on pages ({@link PageReduce}) against the same commands as row
 * operators over the same input: random pages (whole numbers, decimals, numbers as text, text,
 * nulls, multivalues, a column some pages lack), every result equal row by row and column by
 * column. A difference is a bug in one of the two engines.
 */
class PageReduceTest {
  private static final Evaluator EVALUATOR =
      new Evaluator(Instant.parse("2026-01-05T00:00:00Z"), ZoneOffset.UTC);

  @ParameterizedTest
  @ValueSource(
      strings = {
        "sort -n",
        "sort n, -t",
        "sort num(t)",
        "sort str(n)",
        "sort 7 -d, n",
        "sort limit=0 t",
        "head 5",
        "head 0",
        "sort -n | head 3",
        "head 40 | sort t | head 7",
        "eval x=n*2 | where x>10 | sort -x | head 20",
        "sort d | fields t, n",
        "rename n AS m | sort -m | table m, t",
        "where isnotnull(extra) | sort extra",
        "sort -mv | head 12",
        "dedup t",
        "dedup 2 n",
        "dedup mv keepempty=true",
        "dedup extra keepempty=true | head 9",
        "dedup t consecutive=true",
        "dedup 2 n consecutive=true",
        "dedup t sortby -n",
        "dedup n, t sortby +num(t), d",
        "dedup mv, t | sort -d",
      })
  void pagesAnswerAsRowsDo(String commands) {
    for (long seed = 0; seed < 20; seed++) {
      List<Page> input = randomPages(new Random(seed));
      assertThat(PipelineTest.table(onPages(commands, input, 16)))
          .as("seed %d: %s", seed, commands)
          .isEqualTo(PipelineTest.table(onRows(commands, input, 16)));
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
   * different fields. (A stage after them that cuts or filters a page keeps its columns, where the
   * row engine's collector drops one no row of the smaller page holds a value in: compared as
   * tables below, as {@code sort | head} is.)
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "reverse | head 4",
        "tail 40 | sort n",
        "head 20 | reverse | tail 5",
        "reverse | dedup t | reverse",
      })
  void reorderedAnswersAreTheRowEnginesAnswers(String commands) {
    for (long seed = 0; seed < 20; seed++) {
      List<Page> input = randomPages(new Random(seed));
      assertThat(PipelineTest.table(byName(onPages(commands, input, 16))))
          .as("seed %d: %s", seed, commands)
          .isEqualTo(PipelineTest.table(byName(onRows(commands, input, 16))));
    }
  }

  /** As above, page by page. */
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
      List<Row> rows = new ArrayList<>();
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
        rows.add(new MapRow(values));
      }
      pages.add(PageCollector.toPage(rows));
    }
    return pages;
  }
}
