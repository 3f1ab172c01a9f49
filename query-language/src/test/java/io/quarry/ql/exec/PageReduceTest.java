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

  private static List<Command> parse(String commands) {
    Query parsed = new Parser(CommandRegistry.builtIns()).parse("* | " + commands);
    return parsed.commands().subList(1, parsed.commands().size());
  }

  private static List<Page> onPages(String commands, List<Page> input, int pageSize) {
    List<Command> parsed = parse(commands);
    assertThat(PageReduce.supports(parsed)).as(commands).isTrue();
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
    // the row engine's collector makes pages of pageSize rows with the columns they hold: compare
    // tables of the same rows, whatever the page boundaries
    List<Row> rows = new ArrayList<>();
    out.forEach(page -> rows.addAll(PluginOperators.rows(page)));
    return rows.isEmpty() ? List.of() : List.of(PageCollector.toPage(rows));
  }

  private static List<Page> onRows(String commands, List<Page> input, int pageSize) {
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
    List<Row> rows = new ArrayList<>();
    out.forEach(page -> rows.addAll(PluginOperators.rows(page)));
    return rows.isEmpty() ? List.of() : List.of(PageCollector.toPage(rows));
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
