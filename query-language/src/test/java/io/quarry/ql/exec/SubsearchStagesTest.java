package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Query;
import io.quarry.ql.ast.SubsearchCommand;
import io.quarry.ql.ast.SubsearchResult;
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
 * {@code join} ({@link HashJoinOperator}) and {@code appendcols} ({@link PairedColumnsOperator}) as
 * page stages of {@link PageReduce} against the row adapter's operators ({@link JoinOperator},
 * {@link AppendColsOperator}) over the same input and subsearch result, and {@code appendpipe}'s
 * commands over pages ({@link SubPipeline#onPages}) against the same commands over the pages' rows:
 * random pages whose columns change type from page to page, multivalued join keys, nulls, keys that
 * repeat on both sides. Every result equal row by row and column by column.
 *
 * <p>Retirement step 3 (docs/design/row-engine-retirement.md): {@code join} with join fields is
 * checked against a plain Java join ({@code joinsAsAPlainJavaJoinDoes}); the forms still compared
 * with the row operators (appendcols, join without fields, join in a longer pipeline, appendpipe's
 * row branch) need oracles of their own before the row engine can go.
 */
class SubsearchStagesTest {
  private static final Evaluator EVALUATOR =
      new Evaluator(Instant.parse("2026-01-05T00:00:00Z"), ZoneOffset.UTC);

  @ParameterizedTest
  @ValueSource(
      strings = {
        "join k [search x] | stats count by v",
        "eval k=upper(k) | join type=left k [search x] | sort n",
        "appendcols [search x]",
        "appendcols override=true [search x]",
        "head 3 | appendcols [search x]",
        "appendcols [search x] | stats count by v",
      })
  void pagesAnswerAsRowsDo(String commands) {
    for (long seed = 0; seed < 40; seed++) {
      Random random = new Random(seed);
      List<Page> input = randomPages(random, 1 + random.nextInt(4));
      SubsearchResult result = subsearch(random);
      List<Map<String, Object>> pages = byName(onPages(commands, input, result));
      List<Map<String, Object>> rows = byName(onRows(commands, input, result));
      if (input.size() == 1) {
        assertThat(pages).as("seed %d: %s", seed, commands).isEqualTo(rows);
      } else {
        // a column the subsearch's values are laid over is typed over the output page: the row
        // adapter's covers its batch (every input page here), the page operator's one input page,
        // so a number may be text in one and a number in the other; the values are the same
        assertThat(asText(pages)).as("seed %d: %s", seed, commands).isEqualTo(asText(rows));
      }
    }
  }

  /**
   * {@code join} on pages against a plain Java join over the same rows: a row whose join fields all
   * have a value is matched with the subsearch's rows whose join fields' first values have the same
   * texts ({@code max} of them in the subsearch's order, 1 by default, 0 for all), once per match,
   * the subsearch row's other fields laid over it (replacing the row's own, or with {@code
   * overwrite=false} only where it has none); an unmatched row is dropped, or kept as it is with
   * {@code type=left}/{@code outer}. Values compared as text (a laid-over column is typed per
   * page).
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "k|inner|1|true",
        "k|left|1|true",
        "k|outer|0|true",
        "k|inner|0|true",
        "k|inner|2|false",
        "k|left|1|false",
        "k,n|inner|1|true",
        "n|left|1|true",
      })
  void joinsAsAPlainJavaJoinDoes(String spec) {
    String[] parts = spec.split("\\|");
    List<String> fields = List.of(parts[0].split(","));
    String type = parts[1];
    int max = Integer.parseInt(parts[2]);
    boolean overwrite = Boolean.parseBoolean(parts[3]);
    String command =
        "join type="
            + type
            + " max="
            + max
            + " overwrite="
            + overwrite
            + " "
            + String.join(", ", fields)
            + " [search x]";
    for (long seed = 0; seed < 40; seed++) {
      Random random = new Random(seed);
      List<Page> input = randomPages(random, 1 + random.nextInt(4));
      SubsearchResult result = subsearch(random);
      List<Map<String, Object>> subsearch = TestPages.rows(result.pages());
      List<Map<String, Object>> expected = new ArrayList<>();
      for (Map<String, Object> row : TestPages.rows(input)) {
        List<String> key = joinKey(row, fields);
        List<Map<String, Object>> matches = new ArrayList<>();
        for (Map<String, Object> other : subsearch) {
          if (key != null && key.equals(joinKey(other, fields))) {
            matches.add(other);
          }
        }
        if (max > 0 && matches.size() > max) {
          matches = matches.subList(0, max);
        }
        if (matches.isEmpty() && !type.equals("inner")) {
          expected.add(row);
        }
        for (Map<String, Object> match : matches) {
          Map<String, Object> joined = new LinkedHashMap<>(row);
          match.forEach(
              (name, value) -> {
                if (!fields.contains(name) && (overwrite || !joined.containsKey(name))) {
                  joined.put(name, value);
                }
              });
          expected.add(joined);
        }
      }
      assertThat(asText(nonNull(TestPages.rows(reduce(command, input, result)))))
          .as("seed %d: %s", seed, command)
          .isEqualTo(asText(nonNull(expected)));
    }
  }

  /** The texts of the row's join fields' first values, null when one has none. */
  private static List<String> joinKey(Map<String, Object> row, List<String> fields) {
    List<String> key = new ArrayList<>();
    for (String field : fields) {
      List<Object> values = PlainStats.values(row, field);
      if (values.isEmpty()) {
        return null;
      }
      key.add(PlainStats.text(values.get(0), field));
    }
    return key;
  }

  /** Rows as {@link #byName} gives them: by name, without their null values. */
  private static List<Map<String, Object>> nonNull(List<Map<String, Object>> rows) {
    return rows.stream().map(row -> (Map<String, Object>) new java.util.TreeMap<>(row)).toList();
  }

  /** The rows with every value as its text (a multivalue, each value). */
  private static List<Map<String, Object>> asText(List<Map<String, Object>> rows) {
    List<Map<String, Object>> texts = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      Map<String, Object> text = new java.util.TreeMap<>();
      row.forEach(
          (name, value) ->
              text.put(
                  name,
                  value instanceof List<?> list
                      ? list.stream().map(Values::toText).toList()
                      : value == null ? null : Values.toText(value)));
      texts.add(text);
    }
    return texts;
  }

  /**
   * Without join fields, the row adapter joins on the subsearch's fields its batch of rows holds
   * (the batch is up to {@value PluginOperators#BATCH} rows), the page operator on those its page
   * holds: the same when the input is one page.
   */
  @ParameterizedTest
  @ValueSource(strings = {"join [search x]", "join type=left max=0 [search x]"})
  void commonFieldsJoinAnswersAsRowsDoOverOnePage(String commands) {
    for (long seed = 0; seed < 40; seed++) {
      Random random = new Random(seed);
      List<Page> input = randomPages(random, 1);
      SubsearchResult result = subsearch(random);
      assertThat(byName(onPages(commands, input, result)))
          .as("seed %d: %s", seed, commands)
          .isEqualTo(byName(onRows(commands, input, result)));
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "where n > 1 | eval n=n*100",
        "stats count AS rows",
        "stats sum(n) AS n by k | sort -n",
        "eval k=k.\"!\" | head 4",
        "where searchmatch(\"k=a\")",
        "where searchmatch(\"a\")",
      })
  void appendpipeCommandsOnPagesAnswerAsOnRows(String commands) {
    for (long seed = 0; seed < 40; seed++) {
      Random random = new Random(seed);
      List<Page> input = randomPages(random, 1 + random.nextInt(4));
      List<Command> parsed = parse(commands, null);
      assertThat(ReduceCoverage.supportsOverReadFields(parsed)).as(commands).isTrue();
      assertThat(byName(rowsAsOnePage(SubPipeline.onPages(parsed, input, context(), evaluator()))))
          .as("seed %d: %s", seed, commands)
          .isEqualTo(
              byName(rowsAsOnePage(SubPipeline.onRows(parsed, input, context(), evaluator()))));
    }
  }

  @Test
  void joinAndAppendcolsReleaseWhatTheyHold() {
    for (String commands : List.of("join type=left max=0 k [search x]", "appendcols [search x]")) {
      MemoryAccount account = new MemoryAccount("test", Long.MAX_VALUE);
      Evaluator evaluator =
          new Evaluator(Instant.parse("2026-01-05T00:00:00Z"), ZoneOffset.UTC)
              .withResources(new SearchResources(account, () -> false, warning -> {}));
      Random random = new Random(7);
      List<Command> parsed = parse(commands, subsearch(random));
      List<Page> out = new ArrayList<>();
      PageReduce reduce =
          new PageReduce(
              parsed,
              evaluator,
              out::add,
              new StageStats(parsed.stream().map(Command::name).toList()),
              0,
              16);
      for (Page page : randomPages(random, 3)) {
        reduce.add(page);
      }
      reduce.finish();
      reduce.close();
      assertThat(out).as(commands).isNotEmpty();
      assertThat(account.used()).as(commands).isZero();
    }
  }

  private static OperatorContext context() {
    return new SearchResources(new MemoryAccount("test", Long.MAX_VALUE), () -> false, w -> {})
        .context(Instant.parse("2026-01-05T00:00:00Z"), ZoneOffset.UTC);
  }

  private static Evaluator evaluator() {
    return new Evaluator(Instant.parse("2026-01-05T00:00:00Z"), ZoneOffset.UTC);
  }

  /** The commands, the subsearch's result given to each subsearch command. */
  private static List<Command> parse(String commands, SubsearchResult result) {
    Query parsed = new Parser(CommandRegistry.builtIns()).parse("* | " + commands);
    List<Command> out = new ArrayList<>();
    for (Command command : parsed.commands().subList(1, parsed.commands().size())) {
      out.add(command instanceof SubsearchCommand sub ? sub.withResult(result) : command);
    }
    return out;
  }

  /** The commands' answer on pages, as the page engine's stages give it. */
  private static List<Page> reduce(String commands, List<Page> input, SubsearchResult result) {
    List<Command> parsed = parse(commands, result);
    assertThat(ReduceCoverage.supports(parsed)).as(commands).isTrue();
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        new PageReduce(
            parsed,
            EVALUATOR,
            page -> out.add(page),
            new StageStats(parsed.stream().map(Command::name).toList()),
            0,
            16);
    for (Page page : input) {
      if (!reduce.add(page)) {
        break;
      }
    }
    reduce.finish();
    reduce.close();
    return out;
  }

  private static List<Page> onPages(String commands, List<Page> input, SubsearchResult result) {
    return rowsAsOnePage(reduce(commands, input, result));
  }

  private static List<Page> onRows(String commands, List<Page> input, SubsearchResult result) {
    List<Page> out = new ArrayList<>();
    RowSink sink =
        Pipelines.build(parse(commands, result), new PageCollector(16, out::add), EVALUATOR);
    feed:
    for (Page page : input) {
      for (Row row : PluginOperators.rows(page)) {
        if (!sink.accept(row)) {
          break feed;
        }
      }
    }
    sink.finish();
    return rowsAsOnePage(out);
  }

  /** The rows of the pages as one page: tables of the same rows, whatever the page boundaries. */
  private static List<Page> rowsAsOnePage(List<Page> pages) {
    List<Row> rows = new ArrayList<>();
    pages.forEach(page -> rows.addAll(PluginOperators.rows(page)));
    return rows.isEmpty() ? List.of() : List.of(PageCollector.toPage(rows));
  }

  /** Each row's values by column name (the order of columns is not compared). */
  private static List<Map<String, Object>> byName(List<Page> pages) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Page page : pages) {
      for (int p = 0; p < page.positionCount(); p++) {
        Map<String, Object> row = new java.util.TreeMap<>();
        for (int c = 0; c < page.schema().size(); c++) {
          row.put(page.schema().column(c).name(), PluginOperators.value(page.block(c), p));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /**
   * The subsearch's result: 0–12 rows over 1–3 pages of k (a key, sometimes two values, sometimes
   * none), v (text), n (whole numbers or text), w (sometimes).
   */
  private static SubsearchResult subsearch(Random random) {
    List<Page> pages = new ArrayList<>();
    int rows = 0;
    long bytes = 0;
    int count = 1 + random.nextInt(3);
    for (int i = 0; i < count; i++) {
      List<Row> page = new ArrayList<>();
      int positions = random.nextInt(5);
      for (int p = 0; p < positions; p++) {
        Map<String, Object> values = new LinkedHashMap<>();
        if (random.nextInt(6) > 0) {
          values.put(
              "k",
              random.nextInt(5) == 0 ? List.of(key(random), key(random)) : (Object) key(random));
        }
        values.put("v", "v" + random.nextInt(4));
        if (random.nextBoolean()) {
          values.put("n", random.nextBoolean() ? (Object) (long) random.nextInt(4) : "x");
        }
        if (random.nextInt(3) == 0) {
          values.put("w", (long) random.nextInt(100));
        }
        page.add(new MapRow(values));
      }
      if (!page.isEmpty()) {
        Page built = PageCollector.toPage(page);
        pages.add(built);
        rows += positions;
        bytes += SubsearchRows.ramBytes(built);
      }
    }
    return new SubsearchResult(pages, rows, bytes, List.of());
  }

  private static String key(Random random) {
    return List.of("a", "b", "c", "A", "7").get(random.nextInt(5));
  }

  /**
   * {@code pages} pages of 1–20 positions: k a key (sometimes two values or none), n whole numbers
   * in some pages and text (some of it digits) in others, v sometimes, t text.
   */
  private static List<Page> randomPages(Random random, int pages) {
    List<Page> out = new ArrayList<>();
    for (int i = 0; i < pages; i++) {
      List<Row> rows = new ArrayList<>();
      int positions = 1 + random.nextInt(20);
      boolean nAsText = random.nextInt(4) == 0;
      for (int p = 0; p < positions; p++) {
        Map<String, Object> values = new LinkedHashMap<>();
        if (random.nextInt(5) > 0) {
          values.put(
              "k",
              random.nextInt(6) == 0 ? List.of(key(random), key(random)) : (Object) key(random));
        }
        if (random.nextInt(4) > 0) {
          // as text, sometimes digits: a key equal by its text to a subsearch row's number
          values.put(
              "n",
              nAsText
                  ? (random.nextBoolean() ? "n" : "") + random.nextInt(3)
                  : (Object) (long) random.nextInt(6));
        }
        if (random.nextInt(3) == 0) {
          values.put("v", "mine" + random.nextInt(3));
        }
        values.put("t", random.nextBoolean() ? "a b" : "é" + random.nextInt(9));
        rows.add(new MapRow(values));
      }
      out.add(PageCollector.toPage(rows));
    }
    return out;
  }
}
