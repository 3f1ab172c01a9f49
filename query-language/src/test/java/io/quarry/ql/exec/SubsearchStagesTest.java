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
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code join} ({@link HashJoinOperator}) and {@code appendcols} ({@link PairedColumnsOperator}) as
 * page stages of {@link PageReduce}, and {@code appendpipe}'s commands over pages ({@link
 * SubPipeline#onPages}), against plain Java over the same rows and subsearch result: random pages
 * whose columns change type from page to page, multivalued join keys, nulls, keys that repeat on
 * both sides. A join with fields, without (the fields both sides hold), in a longer pipeline;
 * appendcols with and without {@code override}, after {@code head}, before {@code stats}. No second
 * engine is the reference (docs/design/row-engine-retirement.md, step 3).
 */
class SubsearchStagesTest {
  private static final Evaluator EVALUATOR =
      new Evaluator(Instant.parse("2026-01-05T00:00:00Z"), ZoneOffset.UTC);

  /**
   * {@code appendcols} and {@code join} in longer pipelines against plain Java: {@code appendcols}
   * lays the subsearch's i-th row over the input's i-th (its fields only where the row has none, or
   * replacing them with {@code override=true}), the subsearch's rows past the input's end appended
   * as they are; the joins as {@link #joined}.
   */
  private static Map<
          String,
          java.util.function.BiFunction<
              List<Map<String, Object>>, List<Map<String, Object>>, List<Map<String, Object>>>>
      oracles() {
    Map<
            String,
            java.util.function.BiFunction<
                List<Map<String, Object>>, List<Map<String, Object>>, List<Map<String, Object>>>>
        oracles = new LinkedHashMap<>();
    oracles.put(
        "join k [search x] | stats count by v",
        (rows, sub) ->
            PlainStats.stats(
                joined(rows, sub, List.of("k"), "inner", 1, true), "count", List.of("v")));
    oracles.put("appendcols [search x]", (rows, sub) -> appendcols(rows, sub, false));
    oracles.put("appendcols override=true [search x]", (rows, sub) -> appendcols(rows, sub, true));
    oracles.put(
        "head 3 | appendcols [search x]",
        (rows, sub) -> appendcols(rows.subList(0, Math.min(3, rows.size())), sub, false));
    oracles.put(
        "appendcols [search x] | stats count by v",
        (rows, sub) -> PlainStats.stats(appendcols(rows, sub, false), "count", List.of("v")));
    return oracles;
  }

  @Test
  void pagesAnswerAsPlainJavaComputesThem() {
    for (long seed = 0; seed < 40; seed++) {
      Random random = new Random(seed);
      List<Page> input = randomPages(random, 1 + random.nextInt(4));
      SubsearchResult result = subsearch(random);
      List<Map<String, Object>> rows = TestPages.rows(input);
      List<Map<String, Object>> sub = TestPages.rows(result.pages());
      for (var entry : oracles().entrySet()) {
        assertThat(asText(nonNull(TestPages.rows(reduce(entry.getKey(), input, result)))))
            .as("seed %d: %s", seed, entry.getKey())
            .isEqualTo(asText(nonNull(entry.getValue().apply(rows, sub))));
      }
    }
  }

  /** {@code appendcols}: the i-th subsearch row laid over the i-th input row, the rest appended. */
  private static List<Map<String, Object>> appendcols(
      List<Map<String, Object>> rows, List<Map<String, Object>> sub, boolean override) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (int i = 0; i < Math.max(rows.size(), sub.size()); i++) {
      Map<String, Object> row = new LinkedHashMap<>(i < rows.size() ? rows.get(i) : Map.of());
      if (i < sub.size()) {
        sub.get(i)
            .forEach(
                (name, value) -> {
                  if (override || !row.containsKey(name)) {
                    row.put(name, value);
                  }
                });
      }
      out.add(row);
    }
    return out;
  }

  /**
   * The plain Java join of {@link #joinsAsAPlainJavaJoinDoes}: a row whose join fields all have a
   * value matched with the subsearch's rows whose join fields' values have the same texts (a
   * multivalue: all of them, in order).
   */
  private static List<Map<String, Object>> joined(
      List<Map<String, Object>> rows,
      List<Map<String, Object>> subsearch,
      List<String> fields,
      String type,
      int max,
      boolean overwrite) {
    List<Map<String, Object>> expected = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      List<List<String>> key = joinKey(row, fields);
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
    return expected;
  }

  /**
   * {@code join} after {@code eval k=upper(k)} with {@code type=left}, then {@code sort n}: plain
   * Java, each k upper-cased first (a multivalue: its first value).
   */
  @Test
  void joinAfterEvalAndBeforeSortAsPlainJavaDoes() {
    String command = "eval k=upper(k) | join type=left k [search x] | sort n";
    for (long seed = 0; seed < 40; seed++) {
      Random random = new Random(seed);
      List<Page> input = randomPages(random, 1 + random.nextInt(4));
      SubsearchResult result = subsearch(random);
      List<Map<String, Object>> upper = new ArrayList<>();
      for (Map<String, Object> row : TestPages.rows(input)) {
        Map<String, Object> copy = new LinkedHashMap<>(row);
        if (row.get("k") instanceof String k) {
          copy.put("k", k.toUpperCase(java.util.Locale.ROOT));
        } else if (row.get("k") instanceof List<?> k) {
          // a text function reads a multivalue's first value (Quarry's rule)
          copy.put("k", String.valueOf(k.get(0)).toUpperCase(java.util.Locale.ROOT));
        }
        upper.add(copy);
      }
      List<Map<String, Object>> expected =
          PlainOrder.sort(
              joined(upper, TestPages.rows(result.pages()), List.of("k"), "left", 1, true), "n");
      assertThat(asText(nonNull(TestPages.rows(reduce(command, input, result)))))
          .as("seed %d: %s", seed, command)
          .isEqualTo(asText(nonNull(expected)));
    }
  }

  /**
   * {@code join} on pages against a plain Java join over the same rows: a row whose join fields all
   * have a value is matched with the subsearch's rows whose join fields' values have the same texts
   * (a multivalue: all of them, in order; {@code max} of them in the subsearch's order, 1 by
   * default, 0 for all), once per match, the subsearch row's other fields laid over it (replacing
   * the row's own, or with {@code overwrite=false} only where it has none); an unmatched row is
   * dropped, or kept as it is with {@code type=left}/{@code outer}. Values compared as text (a
   * laid-over column is typed per page).
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
        List<List<String>> key = joinKey(row, fields);
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

  /**
   * The texts of the row's join fields' values (a multivalue: all of them, in order), null when one
   * has none.
   */
  private static List<List<String>> joinKey(Map<String, Object> row, List<String> fields) {
    List<List<String>> key = new ArrayList<>();
    for (String field : fields) {
      List<Object> values = PlainStats.values(row, field);
      if (values.isEmpty()) {
        return null;
      }
      key.add(values.stream().map(value -> PlainStats.text(value, field)).toList());
    }
    return key;
  }

  /** Rows by name, without their null values. */
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
   * Without join fields, {@code join} joins a row on the subsearch's fields that it or a row before
   * it holds a value of; a row missing one of them is unmatched (Splunk: the fields both result
   * sets have, a row missing one not matching) — over pages of random sizes, as a plain Java join
   * that walks the rows in order.
   */
  @ParameterizedTest
  @ValueSource(strings = {"inner|1", "left|0"})
  void commonFieldsJoinAsPlainJavaDoes(String spec) {
    String type = spec.split("\\|")[0];
    int max = Integer.parseInt(spec.split("\\|")[1]);
    String command = "join type=" + type + " max=" + max + " [search x]";
    for (long seed = 0; seed < 40; seed++) {
      Random random = new Random(seed);
      List<Page> input = randomPages(random, 1 + random.nextInt(3));
      SubsearchResult result = subsearch(random);
      List<Map<String, Object>> rows = TestPages.rows(input);
      List<Map<String, Object>> sub = TestPages.rows(result.pages());
      java.util.Set<String> theirs = new java.util.TreeSet<>();
      sub.forEach(row -> theirs.addAll(row.keySet()));
      java.util.Set<String> shared = new java.util.TreeSet<>(); // held by this row or one before
      List<Map<String, Object>> expected = new ArrayList<>();
      for (Map<String, Object> row : rows) {
        for (String name : theirs) {
          if (row.get(name) != null) {
            shared.add(name);
          }
        }
        boolean complete = !shared.isEmpty();
        for (String name : shared) {
          complete &= row.get(name) != null;
        }
        if (!complete) { // a shared field missing, or none yet: unmatched
          expected.addAll(type.equals("inner") ? List.of() : List.of(row));
        } else {
          expected.addAll(joined(List.of(row), sub, List.copyOf(shared), type, max, true));
        }
      }
      assertThat(asText(nonNull(TestPages.rows(reduce(command, input, result)))))
          .as("seed %d: %s", seed, command)
          .isEqualTo(asText(nonNull(expected)));
    }
  }

  /**
   * {@code appendpipe}'s commands over pages ({@link SubPipeline#onPages}) against plain Java over
   * the same rows; a bare word (here inside {@code searchmatch}) matches a row that is not an event
   * where one of its fields holds it whole, a {@code field=value} matches the field's values
   * ignoring case.
   */
  @Test
  void appendpipeCommandsAnswerAsPlainJavaDoes() {
    Map<String, Function<List<Map<String, Object>>, List<Map<String, Object>>>> oracles =
        new LinkedHashMap<>();
    oracles.put(
        "where n > 1 | eval n=n*100",
        rows -> {
          List<Map<String, Object>> out = new ArrayList<>();
          for (Map<String, Object> row : rows) {
            if (row.get("n") == null) {
              continue;
            }
            // a number compares as a number, text as text (Splunk's eval comparison)
            java.math.BigDecimal n = PlainStats.number(row.get("n"), null);
            boolean kept =
                n != null
                    ? n.compareTo(java.math.BigDecimal.ONE) > 0
                    : String.valueOf(row.get("n")).compareTo("1") > 0;
            if (kept) {
              Map<String, Object> copy = new LinkedHashMap<>(row);
              copy.remove("n"); // text times a number: no value
              if (n != null) {
                copy.put("n", n.multiply(java.math.BigDecimal.valueOf(100)));
              }
              out.add(copy);
            }
          }
          return out;
        });
    oracles.put("stats count AS rows", rows -> List.of(Map.of("rows", (long) rows.size())));
    oracles.put(
        "stats sum(n) AS n by k | sort -n",
        rows -> PlainOrder.sort(PlainStats.stats(rows, "sum(n) AS n", List.of("k")), "-n"));
    oracles.put(
        "where searchmatch(\"k=a\")",
        rows ->
            rows.stream()
                .filter(
                    row ->
                        PlainStats.values(row, "k").stream()
                            .anyMatch(k -> String.valueOf(k).equalsIgnoreCase("a")))
                .toList());
    // a bare word: a row without _raw holds it where some field's whole value is it, any case
    oracles.put(
        "where searchmatch(\"a\")",
        rows ->
            rows.stream()
                .filter(
                    row ->
                        row.keySet().stream()
                            .anyMatch(
                                field ->
                                    PlainStats.values(row, field).stream()
                                        .anyMatch(v -> String.valueOf(v).equalsIgnoreCase("a"))))
                .toList());
    oracles.put(
        "eval k=k.\"!\" | head 4",
        rows -> {
          List<Map<String, Object>> out = new ArrayList<>();
          for (Map<String, Object> row : rows.subList(0, Math.min(4, rows.size()))) {
            Map<String, Object> copy = new LinkedHashMap<>(row);
            List<Object> k = PlainStats.values(row, "k");
            copy.remove("k"); // a missing operand: no value
            if (!k.isEmpty()) {
              copy.put("k", k.get(0) + "!"); // a multivalue: its first value
            }
            out.add(copy);
          }
          return out;
        });
    for (long seed = 0; seed < 40; seed++) {
      Random random = new Random(seed);
      List<Page> input = randomPages(random, 1 + random.nextInt(4));
      List<Map<String, Object>> rows = TestPages.rows(input);
      for (var entry : oracles.entrySet()) {
        List<Command> parsed = parse(entry.getKey(), null);
        assertThat(ReduceCoverage.supportsOverReadFields(parsed)).as(entry.getKey()).isTrue();
        assertThat(
                PlainStats.canonical(
                    nonNull(
                        TestPages.rows(
                            SubPipeline.onPages(parsed, input, context(), evaluator())))))
            .as("seed %d: %s", seed, entry.getKey())
            .isEqualTo(PlainStats.canonical(nonNull(entry.getValue().apply(rows))));
      }
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
      PageRun.pull(reduce, randomPages(random, 3));
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
    PageRun.pull(reduce, input);
    return out;
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
      List<Map<String, Object>> page = new ArrayList<>();
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
        page.add(values);
      }
      if (!page.isEmpty()) {
        Page built = TestPages.of(page);
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
      List<Map<String, Object>> rows = new ArrayList<>();
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
        rows.add(values);
      }
      out.add(TestPages.of(rows));
    }
    return out;
  }
}
