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
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The row-local commands as page stages ({@code rex} as {@link RexOperator}, {@code lookup} as
 * {@link LookupOperator}, {@code rename} with wildcards and several pairs, the built-in page
 * operators of every field and centralized ones driven directly, an aggregation after them) over
 * random pages whose columns change type from page to page (a field of whole numbers in one page,
 * of text in the next), with numbers as text, non-ASCII text, nulls and multivalues: against plain
 * Java written from each command's rule ({@link java.util.regex.Pattern} for {@code rex}, a map
 * rename, a map lookup, {@link PlainStats}), and every form the same answer whatever pages its
 * input comes in and its answer goes out in. No second engine is the reference
 * (docs/design/row-engine-retirement.md, step 3).
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

  /**
   * Each command and its plain Java answer over the input rows, written from the command's
   * documented rule (its class's javadoc, Splunk's Search Reference).
   */
  private static Map<String, Function<List<Map<String, Object>>, List<Map<String, Object>>>>
      oracles() {
    Map<String, Function<List<Map<String, Object>>, List<Map<String, Object>>>> oracles =
        new LinkedHashMap<>();
    // rex mode=sed: s/regex/replacement/flags (g: every match, N: the Nth), y/from/to/
    oracles.put(
        "rex field=t mode=sed \"s/\\d/#/g\"",
        rows -> mapField(rows, "t", v -> text(v).replaceAll("\\d", "#")));
    oracles.put(
        "rex field=t mode=sed \"s/(\\w)(\\d)/\\2\\1/2\"",
        rows -> mapField(rows, "t", v -> replaceNth(text(v), "(\\w)(\\d)", "$2$1", 2)));
    oracles.put(
        "rex field=n mode=sed \"s/1/one/\"",
        rows -> mapField(rows, "n", v -> text(v).replaceFirst("1", "one")));
    // a multivalue: its first value rewritten, the others dropped (RexOperator's rule; Splunk's
    // reference does not say)
    oracles.put(
        "rex field=mv mode=sed \"y/0123/abcd/\"",
        rows ->
            mapField(
                firstValues(rows, "mv"),
                "mv",
                v -> {
                  StringBuilder out = new StringBuilder();
                  for (char c : text(v).toCharArray()) {
                    int at = "0123".indexOf(c);
                    out.append(at < 0 ? c : "abcd".charAt(at));
                  }
                  return out.toString();
                }));
    oracles.put(
        "lookup users k | stats count by v",
        rows ->
            PlainStats.stats(
                lookup(rows, 0, "k", List.of("v:v", "w:w"), false), "count", List.of("v")));
    oracles.put("fillnull", rows -> fill(rows, null, "0"));
    oracles.put("fillnull value=none", rows -> fill(rows, null, "none"));
    oracles.put("fillnull value=0 num t", rows -> fill(rows, List.of("num", "t"), "0"));
    // num(): a value that is no number is removed
    oracles.put(
        "convert num(t) AS tn",
        rows -> {
          List<Map<String, Object>> out = new ArrayList<>();
          for (Map<String, Object> row : rows) {
            Map<String, Object> copy = new LinkedHashMap<>(row);
            java.math.BigDecimal number =
                row.get("t") == null ? null : PlainStats.number(row.get("t"), null);
            if (number != null) {
              copy.put("tn", number);
            }
            out.add(copy);
          }
          return out;
        });
    // one row per value; a row without the field passes
    oracles.put(
        "mvexpand mv",
        rows -> {
          List<Map<String, Object>> out = new ArrayList<>();
          for (Map<String, Object> row : rows) {
            if (row.get("mv") instanceof List<?> values) {
              for (Object value : values) {
                Map<String, Object> copy = new LinkedHashMap<>(row);
                copy.put("mv", value);
                out.add(copy);
              }
            } else {
              out.add(row);
            }
          }
          return out;
        });
    // a multivalue joined by newlines
    oracles.put(
        "nomv mv",
        rows ->
            mapRows(
                rows,
                row -> {
                  if (row.get("mv") instanceof List<?> list) {
                    row.put("mv", String.join("\n", list.stream().map(String::valueOf).toList()));
                  }
                }));
    // range: the names of the ranges (bounds included) n falls in, else the default
    oracles.put(
        "rangemap field=n low=-5-0 high=1-20 default=none",
        rows -> {
          List<Map<String, Object>> out = new ArrayList<>();
          for (Map<String, Object> row : rows) {
            Map<String, Object> copy = new LinkedHashMap<>(row);
            String range = "none";
            if (row.get("n") instanceof Long n) {
              range = n >= -5 && n <= 0 ? "low" : n >= 1 && n <= 20 ? "high" : "none";
            }
            copy.put("range", range);
            out.add(copy);
          }
          return out;
        });
    // a whole value matching old (* any text) becomes new, * carried over
    oracles.put(
        "replace v* WITH w* IN t",
        rows ->
            mapField(
                rows,
                "t",
                v -> v instanceof String t && t.startsWith("v") ? "w" + t.substring(1) : v));
    oracles.put(
        "replace \"\" WITH empty",
        rows -> {
          List<Map<String, Object>> out = new ArrayList<>();
          for (Map<String, Object> row : rows) {
            Map<String, Object> copy = new LinkedHashMap<>(row);
            copy.replaceAll((name, value) -> "".equals(value) ? "empty" : value);
            out.add(copy);
          }
          return out;
        });
    // eval over each field: a number plus one; text plus one is no value
    oracles.put(
        "foreach n num [eval <<FIELD>>=<<FIELD>>+1]",
        rows -> {
          List<Map<String, Object>> out = new ArrayList<>();
          for (Map<String, Object> row : rows) {
            Map<String, Object> copy = new LinkedHashMap<>(row);
            for (String field : List.of("n", "num")) {
              java.math.BigDecimal number =
                  row.get(field) == null || row.get(field) instanceof List
                      ? null
                      : PlainStats.number(row.get(field), null);
              if (number == null) {
                copy.remove(field);
              } else {
                copy.put(field, number.add(java.math.BigDecimal.ONE));
              }
            }
            out.add(copy);
          }
          return out;
        });
    // fieldformat where it stands (no planner here): an eval keeping a missing field missing
    oracles.put(
        "fieldformat n=tostring(n*2)",
        rows -> mapField(rows, "n", v -> Long.toString((Long) v * 2)));
    oracles.put(
        "eval j=\"{\\\"a\\\":\\\"\".k.\"\\\"}\" | spath input=j",
        rows -> {
          List<Map<String, Object>> out = new ArrayList<>();
          for (Map<String, Object> row : rows) {
            Map<String, Object> copy = new LinkedHashMap<>(row);
            if (row.get("k") != null) {
              copy.put("j", "{\"a\":\"" + row.get("k") + "\"}");
              copy.put("a", row.get("k"));
            }
            out.add(copy);
          }
          return out;
        });
    oracles.put(
        "eval j=\"{\\\"a\\\":[1,2]}\" | spath input=j path=a{} output=arr",
        rows -> {
          List<Map<String, Object>> out = new ArrayList<>();
          for (Map<String, Object> row : rows) {
            Map<String, Object> copy = new LinkedHashMap<>(row);
            copy.put("j", "{\"a\":[1,2]}");
            copy.put("arr", List.of("1", "2"));
            out.add(copy);
          }
          return out;
        });
    oracles.put(
        "stats count by t | fillnull", rows -> PlainStats.stats(rows, "count", List.of("t")));
    // several rename pairs, in order; a name renamed away by an earlier pair is read as the row
    // came (the engine's rule, RenameOperator)
    for (String renames :
        List.of(
            "n AS a, n AS b",
            "t AS k, t AS v",
            "n AS t, t AS z",
            "n AS k, k AS n",
            "n* AS nn*, t AS n")) {
      oracles.put("rename " + renames, rows -> renamed(rows, renames));
    }
    // rename n AS _time: n's number is the time in seconds
    oracles.put(
        "rename n AS _time",
        rows ->
            mapRows(
                rows,
                row -> {
                  Object n = row.remove("n");
                  row.remove("_time");
                  if (n != null) {
                    row.put("_time", java.math.BigDecimal.valueOf((Long) n));
                  }
                }));
    return oracles;
  }

  /** The rows with a multivalue {@code field} cut to its first value. */
  private static List<Map<String, Object>> firstValues(
      List<Map<String, Object>> rows, String field) {
    return mapRows(
        rows,
        row -> {
          if (row.get(field) instanceof List<?> list) {
            row.put(field, list.get(0));
          }
        });
  }

  private static String text(Object value) {
    return String.valueOf(value);
  }

  /** The rows with each value of {@code field} (each of a multivalue) mapped. */
  private static List<Map<String, Object>> mapField(
      List<Map<String, Object>> rows, String field, java.util.function.Function<Object, Object> f) {
    return mapRows(
        rows,
        row -> {
          Object value = row.get(field);
          if (value instanceof List<?> list) {
            row.put(field, list.stream().map(f).toList());
          } else if (value != null) {
            row.put(field, f.apply(value));
          }
        });
  }

  private static List<Map<String, Object>> mapRows(
      List<Map<String, Object>> rows, java.util.function.Consumer<Map<String, Object>> change) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      Map<String, Object> copy = new LinkedHashMap<>(row);
      change.accept(copy);
      out.add(copy);
    }
    return out;
  }

  /** The Nth match of {@code regex} replaced ({@code s/…/…/N}), $1 and $2 its groups. */
  private static String replaceNth(String text, String regex, String replacement, int nth) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(regex).matcher(text);
    int seen = 0;
    while (m.find()) {
      if (++seen == nth) {
        String replaced = replacement.replace("$1", m.group(1)).replace("$2", m.group(2));
        return text.substring(0, m.start()) + replaced + text.substring(m.end());
      }
    }
    return text;
  }

  /** {@code fillnull [value=] [fields]}: the fields (all some row has) filled where missing. */
  private static List<Map<String, Object>> fill(
      List<Map<String, Object>> rows, List<String> fields, String value) {
    java.util.Set<String> names = new java.util.LinkedHashSet<>();
    if (fields == null) {
      rows.forEach(row -> names.addAll(row.keySet()));
    } else {
      names.addAll(fields);
    }
    return mapRows(rows, row -> names.forEach(name -> row.putIfAbsent(name, value)));
  }

  /** Literal rename pairs in order, a name renamed away read as the row came. */
  private static List<Map<String, Object>> renamed(List<Map<String, Object>> rows, String pairs) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> original : rows) {
      Map<String, Object> row = new LinkedHashMap<>(original);
      java.util.Set<String> renamedAway = new java.util.HashSet<>();
      for (String pair : pairs.split(", ")) {
        String[] parts = pair.split(" AS ");
        if (parts[0].endsWith("*")) {
          String prefix = parts[0].substring(0, parts[0].length() - 1);
          String to = parts[1].substring(0, parts[1].length() - 1);
          for (String name : List.copyOf(row.keySet())) {
            if (name.startsWith(prefix)) {
              Object value = row.remove(name);
              row.put(to + name.substring(prefix.length()), value);
              renamedAway.add(name);
            }
          }
          continue;
        }
        Object value =
            row.containsKey(parts[0])
                ? row.get(parts[0])
                : renamedAway.contains(parts[0]) ? original.get(parts[0]) : null;
        if (value == null && !row.containsKey(parts[0]) && !renamedAway.contains(parts[0])) {
          continue;
        }
        row.remove(parts[0]);
        row.remove(parts[1]);
        if (value != null) {
          row.put(parts[1], value);
        }
        renamedAway.add(parts[0]);
      }
      out.add(row);
    }
    return out;
  }

  @Test
  void pagesAnswerAsPlainJavaComputesThem() {
    Map<String, Function<List<Map<String, Object>>, List<Map<String, Object>>>> oracles = oracles();
    for (long seed = 0; seed < 25; seed++) {
      List<Page> input = randomPages(new Random(seed));
      List<Map<String, Object>> rows = TestPages.rows(input);
      for (var entry : oracles.entrySet()) {
        assertThat(PlainStats.canonical(nonNull(onPages(entry.getKey(), input, 16))))
            .as("seed %d: %s", seed, entry.getKey())
            .isEqualTo(PlainStats.canonical(sortedFields(entry.getValue().apply(rows))));
      }
    }
  }

  private static List<Map<String, Object>> sortedFields(List<Map<String, Object>> rows) {
    return rows.stream().map(row -> (Map<String, Object>) new java.util.TreeMap<>(row)).toList();
  }

  /**
   * Every form, those above and those whose rule is checked by hand elsewhere ({@code convert
   * auto}, {@code makemv}, {@code addtotals}: {@code CommandHarness}'s tests and the golden files),
   * gives the same rows whatever pages its input comes in and its answer goes out in.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "rex field=t \"(?<letter>[a-zé])(?<digit>\\d)?\"",
        "rex field=t max_match=2 \"(?<num>\\d)(?<num2>\\d)?\"",
        "rex field=mv \"(?<m>\\d)\"",
        "rex field=absent \"(?<x>.)\"",
        "rex field=t mode=sed \"s/(\\w)(\\d)/\\2\\1/2\"",
        "lookup users k | stats count by v",
        "fillnull",
        "convert auto(*)",
        "convert num(t) AS tn",
        "makemv delim=\"1\" t",
        "mvexpand mv",
        "nomv mv",
        "replace \"\" WITH empty",
        "foreach n num [eval <<FIELD>>=<<FIELD>>+1]",
        "addtotals",
        "addtotals n mv fieldname=sum",
        "stats count by t | addtotals",
        "rename n* AS nn*, t AS n",
        "rename n AS k, k AS n",
        "eval _time=n*1000000 | rename _time AS t",
        "eval _time=n*1500000 | rename _time AS n",
        "rename n AS _time",
        // a t of digits ("51") renamed onto a _time that eval set: 51 seconds whatever the pages
        "eval _time=n | rename t AS _time",
        "eval _time=n | rename t AS _time | eval s=_time + 0",
      })
  void answersDoNotDependOnPages(String commands) {
    for (long seed = 0; seed < 25; seed++) {
      List<Page> input = randomPages(new Random(seed));
      List<Map<String, Object>> expected =
          PlainStats.canonical(nonNull(onPages(commands, input, 16)));
      List<Map<String, Object>> rows = TestPages.rows(input);
      for (int split : new int[] {1, 7}) {
        List<Page> pages = new ArrayList<>();
        for (int from = 0; from < rows.size(); from += split) {
          pages.add(TestPages.of(rows.subList(from, Math.min(rows.size(), from + split))));
        }
        for (int pageSize : new int[] {1, 1_024}) {
          assertThat(PlainStats.canonical(nonNull(onPages(commands, pages, pageSize))))
              .as(
                  "seed %d, input pages of %d, answer pages of %d: %s",
                  seed, split, pageSize, commands)
              .isEqualTo(expected);
        }
      }
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
        "t|(?<a>\\w)(?<b>\\d)|1",
        // an optional group that took part in no match sets nothing; max_match=2: two matches
        "t|(?<letter>[a-zé])(?<digit>\\d)?|1",
        "t|(?<num>\\d)(?<num2>\\d)?|2"
      })
  void extractsAsJavaRegexDoes(String spec) {
    String[] parts = spec.split("\\|");
    String field = parts[0];
    java.util.regex.Pattern pattern = java.util.regex.Pattern.compile(parts[1]);
    int most = Integer.parseInt(parts[2]); // 0: every match
    boolean all = most != 1;
    List<String> groups =
        new ArrayList<>(
            java.util.regex.Pattern.compile("\\(\\?<(\\w+)>")
                .matcher(parts[1])
                .results()
                .map(r -> r.group(1))
                .toList());
    String command =
        "rex field=" + field + (all ? " max_match=" + most : "") + " \"" + parts[1] + "\"";
    for (long seed = 0; seed < 25; seed++) {
      List<Page> input = randomPages(new Random(seed));
      List<Map<String, Object>> expected = new ArrayList<>();
      for (Map<String, Object> row : TestPages.rows(input)) {
        Map<String, Object> out = new java.util.TreeMap<>(row);
        Object value = row.get(field);
        if (value != null) {
          java.util.regex.Matcher m = pattern.matcher(String.valueOf(value));
          List<java.util.regex.MatchResult> matches =
              all
                  ? m.results().limit(most == 0 ? Long.MAX_VALUE : most).toList()
                  : m.find() ? List.of(m.toMatchResult()) : List.of();
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
      List<Map<String, Object>> expected =
          lookup(TestPages.rows(input), keyColumn, keyField, List.of(parts[3].split(",")), onlyNew);
      assertThat(PlainStats.canonical(nonNull(onPages(command, input, 16))))
          .as("seed %d: %s", seed, command)
          .isEqualTo(PlainStats.canonical(sortedFields(expected)));
    }
  }

  /**
   * The plain Java lookup in {@link #USERS}: {@code outputs} as {@code column:name}, the key in
   * column {@code keyColumn} matched by the row's {@code keyField}.
   */
  private static List<Map<String, Object>> lookup(
      List<Map<String, Object>> rows,
      int keyColumn,
      String keyField,
      List<String> outputs,
      boolean onlyNew) {
    List<Map<String, Object>> expected = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      Map<String, Object> out = new LinkedHashMap<>(row);
      List<Object> keys = PlainStats.values(row, keyField);
      List<List<String>> matches = new ArrayList<>();
      if (!keys.isEmpty()) {
        String key = String.valueOf(keys.get(0));
        USERS_ROWS.stream().filter(r -> r.get(keyColumn).equals(key)).forEach(matches::add);
      }
      if (!matches.isEmpty()) {
        for (String output : outputs) {
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
    return expected;
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
    PageRun.pull(reduce, input);
    return out;
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
