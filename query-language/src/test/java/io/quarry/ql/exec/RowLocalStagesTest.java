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
 * The row-local commands as page stages ({@code rex} as {@link RexStage}, {@code lookup} as {@link
 * LookupStage}, {@code rename} with wildcards, the built-in page operators of every field and
 * centralized ones driven directly, an aggregation after them) against the same commands as row
 * operators over the same input: random pages whose columns change type from page to page (a field
 * of whole numbers in one page, of text in the next), with numbers as text, non-ASCII text, nulls
 * and multivalues. Every result equal row by row and column by column; a difference is a bug in one
 * of the two engines.
 *
 * <p>Retirement step 3 (docs/design/row-engine-retirement.md): one-clause renames (wildcards too),
 * {@code rex} extractions and {@code lookup} are checked against plain Java ({@link
 * java.util.regex.Pattern}, a map rename) instead; the forms still compared with the row operators
 * ({@code pagesAnswerAsRowsDo}) need an oracle of their own before the row engine can go.
 */
class RowLocalStagesTest {
  private static final List<String> USERS_COLUMNS = List.of("k", "v", "w");

  private static final List<List<String>> USERS_ROWS =
      List.of(
          List.of("a", "1", "x"),
          List.of("a", "2", ""),
          List.of("a", "1", "q"),
          List.of("b", "", "y"),
          List.of("7", "seven", ""),
          List.of("c", "3", "z"));

  private static final LookupTable USERS = new LookupTable(USERS_COLUMNS, USERS_ROWS);

  private static final Evaluator EVALUATOR =
      new Evaluator(
          Instant.parse("2026-01-05T00:00:00Z"),
          ZoneOffset.UTC,
          name -> name.equals("users") ? USERS : null);

  @ParameterizedTest
  @ValueSource(
      strings = {
        "rex field=t \"(?<letter>[a-zé])(?<digit>\\d)?\"",
        "rex field=t max_match=2 \"(?<num>\\d)(?<num2>\\d)?\"",
        "rex field=mv \"(?<m>\\d)\"",
        "rex field=absent \"(?<x>.)\"",
        "rex field=t mode=sed \"s/\\d/#/g\"",
        "rex field=t mode=sed \"s/(\\w)(\\d)/\\2\\1/2\"",
        "rex field=n mode=sed \"s/1/one/\"",
        "rex field=mv mode=sed \"y/0123/abcd/\"",
        "lookup users k | stats count by v",
        "fillnull",
        "fillnull value=none",
        "fillnull value=0 num t",
        "convert auto(*)",
        "convert num(t) AS tn",
        "makemv delim=\"1\" t",
        "mvexpand mv",
        "nomv mv",
        "rangemap field=n low=-5-0 high=1-20 default=none",
        "replace v* WITH w* IN t",
        "replace \"\" WITH empty",
        "foreach n num [eval <<FIELD>>=<<FIELD>>+1]",
        "fieldformat n=tostring(n*2)",
        "addtotals",
        "addtotals n mv fieldname=sum",
        "eval j=\"{\\\"a\\\":\\\"\".k.\"\\\"}\" | spath input=j",
        "eval j=\"{\\\"a\\\":[1,2]}\" | spath input=j path=a{} output=arr",
        "stats count by t | fillnull",
        "stats count by t | addtotals",
        "rename n* AS nn*, t AS n",
        // a name twice in one rename: an old name renamed away is read as the row came
        "rename n AS a, n AS b",
        "rename t AS k, t AS v",
        "rename n AS t, t AS z",
        "rename n AS k, k AS n",
        "eval _time=n*1000000 | rename _time AS t",
        "eval _time=n*1500000 | rename _time AS n",
        "rename n AS _time",
        "eval _time=n | rename t AS _time",
      })
  void pagesAnswerAsRowsDo(String commands) {
    for (long seed = 0; seed < 25; seed++) {
      List<Page> input = randomPages(new Random(seed));
      assertThat(byName(onPages(commands, input, 16)))
          .as("seed %d: %s", seed, commands)
          .isEqualTo(byName(onRows(commands, input, 16)));
    }
  }

  /**
   * A one-clause {@code rename}, wildcards included, against a plain Java rename over each row:
   * every field whose name matches the pattern takes the name with what {@code *} matched put into
   * the new pattern, replacing a field of that name; a row without the field is left as it is.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "n* AS z*",
        "*v AS n*",
        "k* AS t*",
        "t* AS n*",
        "*v AS *x",
        "*m AS z*",
        "n AS k",
        "k AS n"
      })
  void renamesAsAPlainJavaRenameDoes(String clause) {
    String[] parts = clause.split(" AS ");
    java.util.regex.Pattern from = java.util.regex.Pattern.compile(parts[0].replace("*", "(.*)"));
    for (long seed = 0; seed < 25; seed++) {
      List<Page> input = randomPages(new Random(seed));
      List<Map<String, Object>> expected = new ArrayList<>();
      for (Map<String, Object> row : TestPages.rows(input)) {
        Map<String, Object> renamed = new java.util.TreeMap<>(row);
        for (Map.Entry<String, Object> field : row.entrySet()) {
          java.util.regex.Matcher m = from.matcher(field.getKey());
          if (m.matches()) {
            renamed.remove(field.getKey());
            renamed.put(
                parts[1].contains("*") ? parts[1].replace("*", m.group(1)) : parts[1],
                field.getValue());
          }
        }
        expected.add(renamed);
      }
      // by value: a column that gets numbers in some rows and text in others is a text column
      assertThat(PlainStats.canonical(nonNull(onPages("rename " + clause, input, 16))))
          .as("seed %d: rename %s", seed, clause)
          .isEqualTo(PlainStats.canonical(expected));
    }
  }

  /**
   * {@code rex} extracting named groups from {@code t} (text) or {@code n} (a number, as its text),
   * against {@link java.util.regex.Pattern} over each row's value: the first match (every match, a
   * multivalue, with {@code max_match=0}) sets the group's field, replacing its value; a row whose
   * value does not match, or without the field, keeps its fields.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "t|(?<num>\\d+)|1",
        "t|(?<n>\\d+)|1",
        "t|^(?<t>v)|1",
        "n|(?<first>\\d)|1",
        "t|(?<num>\\d)|0",
        "t|(?<a>\\w)(?<b>\\d)|1"
      })
  void extractsAsJavaRegexDoes(String spec) {
    String[] parts = spec.split("\\|");
    String field = parts[0];
    java.util.regex.Pattern pattern = java.util.regex.Pattern.compile(parts[1]);
    boolean all = parts[2].equals("0");
    List<String> groups =
        new ArrayList<>(
            java.util.regex.Pattern.compile("\\(\\?<(\\w+)>")
                .matcher(parts[1])
                .results()
                .map(r -> r.group(1))
                .toList());
    String command = "rex field=" + field + (all ? " max_match=0" : "") + " \"" + parts[1] + "\"";
    for (long seed = 0; seed < 25; seed++) {
      List<Page> input = randomPages(new Random(seed));
      List<Map<String, Object>> expected = new ArrayList<>();
      for (Map<String, Object> row : TestPages.rows(input)) {
        Map<String, Object> out = new java.util.TreeMap<>(row);
        Object value = row.get(field);
        if (value != null) {
          java.util.regex.Matcher m = pattern.matcher(String.valueOf(value));
          List<java.util.regex.MatchResult> matches =
              all ? m.results().toList() : m.find() ? List.of(m.toMatchResult()) : List.of();
          for (String group : groups) {
            List<Object> found = new ArrayList<>();
            for (java.util.regex.MatchResult match : matches) {
              String text = match.group(group);
              if (text != null) {
                found.add(text);
              }
            }
            if (!found.isEmpty()) {
              out.put(group, found.size() == 1 ? found.get(0) : found);
            }
          }
        }
        expected.add(out);
      }
      assertThat(PlainStats.canonical(nonNull(onPages(command, input, 16))))
          .as("seed %d: %s", seed, command)
          .isEqualTo(PlainStats.canonical(expected));
    }
  }

  /**
   * {@code lookup} against a plain Java lookup over the table's rows: a row's key (the key field's
   * first value as text) picks the table rows with that exact text; each output field takes their
   * non-empty values of its column, distinct, in table order (none: the field removed), or with
   * {@code OUTPUTNEW} only where the row has no value; a row without the key, or whose key matches
   * no table row, keeps its fields.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "lookup users k|k|k|v:v,w:w|false",
        "lookup users k OUTPUT v AS t|k|k|v:t|false",
        "lookup users k OUTPUT v AS n, w|k|k|v:n,w:w|false",
        "lookup users k OUTPUTNEW v AS num|k|k|v:num|true",
        "lookup users k AS t OUTPUT v AS found|k|t|v:found|false",
        "lookup users k AS n OUTPUT v|k|n|v:v|false",
      })
  void looksUpAsAPlainJavaLookupDoes(String spec) {
    String[] parts = spec.split("\\|");
    String command = parts[0];
    int keyColumn = USERS_COLUMNS.indexOf(parts[1]);
    String keyField = parts[2];
    boolean onlyNew = Boolean.parseBoolean(parts[4]);
    for (long seed = 0; seed < 25; seed++) {
      List<Page> input = randomPages(new Random(seed));
      List<Map<String, Object>> expected = new ArrayList<>();
      for (Map<String, Object> row : TestPages.rows(input)) {
        Map<String, Object> out = new java.util.TreeMap<>(row);
        List<Object> keys = PlainStats.values(row, keyField);
        List<List<String>> matches = new ArrayList<>();
        if (!keys.isEmpty()) {
          String key = String.valueOf(keys.get(0));
          USERS_ROWS.stream().filter(r -> r.get(keyColumn).equals(key)).forEach(matches::add);
        }
        if (!matches.isEmpty()) {
          for (String output : parts[3].split(",")) {
            String[] columnAndName = output.split(":");
            int column = USERS_COLUMNS.indexOf(columnAndName[0]);
            String name = columnAndName[1];
            if (onlyNew && row.get(name) != null) {
              continue;
            }
            List<String> values = new ArrayList<>();
            for (List<String> match : matches) {
              String value = match.get(column);
              if (!value.isEmpty() && !values.contains(value)) {
                values.add(value);
              }
            }
            if (values.isEmpty()) {
              out.remove(name);
            } else {
              out.put(name, values.size() == 1 ? values.get(0) : values);
            }
          }
        }
        expected.add(out);
      }
      assertThat(PlainStats.canonical(nonNull(onPages(command, input, 16))))
          .as("seed %d: %s", seed, command)
          .isEqualTo(PlainStats.canonical(expected));
    }
  }

  /**
   * Compositions whose answer is written out in plain Java: {@code strcat} (a missing field as
   * empty text), a constant summed by {@code stats}, and {@code rex} followed by {@code eval},
   * {@code where} and {@code stats} (through {@link PlainStats}).
   */
  @Test
  void composedFormsAsPlainJavaComputesThem() {
    java.util.regex.Pattern digits = java.util.regex.Pattern.compile("(?<num>\\d+)");
    for (long seed = 0; seed < 25; seed++) {
      List<Page> input = randomPages(new Random(seed));
      List<Map<String, Object>> rows = TestPages.rows(input);
      List<Map<String, Object>> joined = new ArrayList<>();
      List<Map<String, Object>> ones = new ArrayList<>();
      List<Map<String, Object>> extracted = new ArrayList<>();
      for (Map<String, Object> row : rows) {
        Map<String, Object> out = new java.util.TreeMap<>(row);
        out.put(
            "out",
            (row.get("t") == null ? "" : String.valueOf(row.get("t")))
                + "-"
                + (row.get("k") == null ? "" : String.valueOf(row.get("k"))));
        joined.add(out);
        Map<String, Object> one = new LinkedHashMap<>(row);
        one.put("x", 1L);
        ones.add(one);
        Map<String, Object> rexed = new LinkedHashMap<>(row);
        if (row.get("t") != null) {
          java.util.regex.Matcher m = digits.matcher(String.valueOf(row.get("t")));
          if (m.find()) {
            rexed.put("num", m.group("num"));
          }
        }
        extracted.add(rexed);
      }
      assertThat(PlainStats.canonical(nonNull(onPages("strcat t \"-\" k out", input, 16))))
          .as("seed %d: strcat", seed)
          .isEqualTo(PlainStats.canonical(joined));
      assertThat(
              PlainStats.canonical(
                  TestPages.rows(onPages("eval x=1 | stats sum(x) AS s, count by k", input, 16))))
          .as("seed %d: eval | stats", seed)
          .isEqualTo(PlainStats.stats(ones, "sum(x) AS s, count", List.of("k")));
      assertThat(
              PlainStats.canonical(
                  TestPages.rows(
                      onPages("rex field=t \"(?<num>\\d+)\" | stats count by num", input, 16))))
          .as("seed %d: rex | stats", seed)
          .isEqualTo(PlainStats.stats(extracted, "count", List.of("num")));
      List<Map<String, Object>> doubled = new ArrayList<>();
      for (Map<String, Object> row : extracted) {
        // num: the extracted digits, or the row's own num where t has none (a number, or text)
        java.math.BigDecimal num = PlainStats.number(row.get("num"), null);
        if (num != null
            && num.multiply(java.math.BigDecimal.TWO).compareTo(java.math.BigDecimal.valueOf(4))
                > 0) {
          Map<String, Object> out = new java.util.TreeMap<>(row);
          out.put("y", num.multiply(java.math.BigDecimal.TWO));
          doubled.add(out);
        }
      }
      assertThat(
              PlainStats.canonical(
                  nonNull(
                      onPages(
                          "rex field=t \"(?<num>\\d+)\" | eval y=num*2 | where y>4", input, 16))))
          .as("seed %d: rex | eval | where", seed)
          .isEqualTo(PlainStats.canonical(doubled));
    }
  }

  /** Every row's non-null values by column name, a multivalue as a list. */
  private static List<Map<String, Object>> nonNull(List<Page> pages) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Map<String, Object> row : TestPages.rows(pages)) {
      rows.add(new java.util.TreeMap<>(row));
    }
    return rows;
  }

  /**
   * Each row's values by column name: the order of columns is not compared (a page stage adds a new
   * field after the page's columns, the row engine's collector orders a page's fields as its first
   * row has them — where a field was new to that row, it comes last).
   */
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

  private static List<Command> parse(String commands) {
    Query parsed = new Parser(CommandRegistry.builtIns()).parse("* | " + commands);
    return parsed.commands().subList(1, parsed.commands().size());
  }

  private static List<Page> onPages(String commands, List<Page> input, int pageSize) {
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
    return rowsAsOnePage(out);
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
    return rowsAsOnePage(out);
  }

  /**
   * The row engine's collector makes pages of pageSize rows with the columns they hold: compare
   * tables of the same rows, whatever the page boundaries.
   */
  private static List<Page> rowsAsOnePage(List<Page> pages) {
    List<Row> rows = new ArrayList<>();
    pages.forEach(page -> rows.addAll(PluginOperators.rows(page)));
    return rows.isEmpty() ? List.of() : List.of(PageCollector.toPage(rows));
  }

  /**
   * 1–5 pages of 1–30 positions: n whole, t text (words, numbers as text, non-ASCII), mv a
   * multivalue, num whole numbers in some pages and text in others, k a lookup key.
   */
  private static List<Page> randomPages(Random random) {
    List<Page> pages = new ArrayList<>();
    int count = 1 + random.nextInt(5);
    for (int i = 0; i < count; i++) {
      List<Map<String, Object>> rows = new ArrayList<>();
      int positions = 1 + random.nextInt(30);
      boolean numAsText = random.nextBoolean();
      for (int p = 0; p < positions; p++) {
        Map<String, Object> values = new LinkedHashMap<>();
        if (random.nextInt(8) > 0) {
          values.put("n", (long) random.nextInt(20) - 5);
        }
        if (random.nextInt(6) > 0) {
          values.put(
              "t",
              switch (random.nextInt(4)) {
                case 0 -> Integer.toString(random.nextInt(500));
                case 1 -> "v" + random.nextInt(10) + " w" + random.nextInt(100);
                case 2 -> "é" + random.nextInt(10) + "ü";
                default -> random.nextBoolean() ? "Zed" : "";
              });
        }
        if (random.nextInt(3) > 0) {
          values.put(
              "mv",
              random.nextBoolean()
                  ? List.of((long) random.nextInt(99), (long) random.nextInt(9))
                  : (Object) (long) random.nextInt(9));
        }
        if (random.nextInt(3) == 0) {
          values.put(
              "num", numAsText ? "n" + random.nextInt(9) : (Object) (long) random.nextInt(9));
        }
        if (random.nextInt(5) > 0) {
          values.put("k", List.of("a", "b", "c", "7", "zz").get(random.nextInt(5)));
        }
        rows.add(values);
      }
      pages.add(TestPages.of(rows));
    }
    return pages;
  }
}
