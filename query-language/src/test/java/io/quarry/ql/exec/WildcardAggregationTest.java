package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.engine.aggregation.WildcardAggregation;
import io.quarry.ql.parser.Parser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code stats} with wildcard fields on pages ({@link WildcardAggregation}) against a plain Java
 * {@code stats} ({@link PlainStats}) over the calls the wildcards stand for, on random rows whose
 * fields differ from row to row (numbers, decimals, numbers as text, text, multivalues, an internal
 * {@code _} field, a field only some pages have), cut into random pages fed to random partials
 * merged at the end: every row's values must be the plain computation's, and the answer's layout
 * (columns, their order and types) must not depend on the split. A wildcard call stands for one
 * call per field of the input whose name it matches — not a by-field, and not an internal field
 * ({@code _…}) unless the pattern starts with {@code _} — named by putting what {@code *} matched
 * into the {@code AS} name; a column without any value is left out ({@code WildcardStatsTest} pins
 * that by hand). A group without any value of a matched field has no answer for it, except from
 * {@code count}, {@code dc} and {@code estdc}, which answer 0 there as when the field is named
 * ({@code count(note)}): Splunk's Search Reference has a wildcard stand for the calls over each
 * field it matches, and {@code count(X)} counts X's occurrences (none: 0).
 */
class WildcardAggregationTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "stats avg(*)",
        "stats sum(*) AS total_* by host",
        "stats max(*_ms) AS *_max, count",
        "stats min(*), dc(host) AS hosts",
        "stats count(*) by host, kind",
        "stats values(*_ms) AS seen_*, avg(a_ms) AS mean by kind",
        "stats max(_*) AS top_*, sum(b*) by host",
      })
  void answersAsAPlainJavaStatsWhateverThePagesAndPartials(String command) {
    for (long seed = 0; seed < 25; seed++) {
      Random random = new Random(seed);
      List<Map<String, Object>> rows = randomRows(random);
      List<Page> split = onPages(command, rows, random);
      List<Page> whole = onPages(command, rows, null);
      assertThat(layout(split)).as("seed %d: %s", seed, command).isEqualTo(layout(whole));
      assertThat(PlainStats.canonical(TestPages.rows(split)))
          .as("seed %d: %s", seed, command)
          .isEqualTo(plain(command, rows));
    }
  }

  private static StatsCommand stats(String text) {
    return (StatsCommand)
        new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
  }

  /** The plain computation: each wildcard call expanded over the rows' field names. */
  private static List<Map<String, Object>> plain(String command, List<Map<String, Object>> rows) {
    String text = command.substring("stats ".length());
    List<String> by = List.of();
    int at = text.indexOf(" by ");
    if (at >= 0) {
      by = java.util.Arrays.stream(text.substring(at + 4).split(",")).map(String::strip).toList();
      text = text.substring(0, at);
    }
    java.util.Set<String> names = new java.util.TreeSet<>();
    rows.forEach(row -> names.addAll(row.keySet()));
    List<PlainStats.Call> calls = new ArrayList<>();
    for (PlainStats.Call call : PlainStats.Call.parse(text)) {
      if (call.field() == null || !call.field().contains("*")) {
        calls.add(call);
        continue;
      }
      java.util.regex.Pattern pattern =
          java.util.regex.Pattern.compile(call.field().replace("*", "(.*)"));
      for (String name : names) {
        java.util.regex.Matcher matcher = pattern.matcher(name);
        if (!matcher.matches()
            || by.contains(name)
            || (name.startsWith("_") && !call.field().startsWith("_"))) {
          continue;
        }
        String output =
            call.name().contains("*")
                ? call.name().replace("*", matcher.group(1))
                : call.function() + "(" + name + ")";
        boolean counts = call.function().equals("count") || call.function().equals("dc");
        calls.add(new PlainStats.Call(call.function(), name, output, !counts));
      }
    }
    return PlainStats.stats(rows, calls, by);
  }

  /**
   * The rows as random pages of 1–12 rows into 1–3 partials merged into the final aggregation
   * ({@code random} null: one page into the final itself).
   */
  private static List<Page> onPages(String command, List<Map<String, Object>> rows, Random random) {
    StatsCommand stats = stats(command);
    assertThat(PageAggregator.supports(stats)).isTrue();
    PageAggregator total = PageAggregator.of(stats, null, MemoryTracker.unbounded("stats"), 1024);
    if (random == null) {
      if (!rows.isEmpty()) {
        total.addInput(TestPages.page(TestPages.cells(rows)));
      }
    } else {
      List<PageAggregator> partials = new ArrayList<>();
      int count = 1 + random.nextInt(3);
      for (int i = 0; i < count; i++) {
        partials.add(total.newPartial());
      }
      for (int from = 0; from < rows.size(); ) {
        int to = Math.min(rows.size(), from + 1 + random.nextInt(12));
        partials
            .get(random.nextInt(count))
            .addInput(TestPages.page(TestPages.cells(rows.subList(from, to))));
        from = to;
      }
      partials.forEach(total::merge);
    }
    total.finish();
    List<Page> out = new ArrayList<>();
    for (Page page = total.getOutput(); page != null; page = total.getOutput()) {
      out.add(page);
    }
    assertThat(total.isFinished()).isTrue();
    total.close();
    return out;
  }

  /** Each page's columns with their types, then its rows' values. */
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

  /** 0–60 rows: host, kind (by-fields, sometimes missing), a_ms, b_ms, bytes, note, _z. */
  private static List<Map<String, Object>> randomRows(Random random) {
    List<Map<String, Object>> rows = new ArrayList<>();
    int count = random.nextInt(61);
    for (int i = 0; i < count; i++) {
      Map<String, Object> values = new LinkedHashMap<>();
      if (random.nextInt(6) > 0) {
        values.put("host", "h" + random.nextInt(4));
      }
      if (random.nextInt(3) > 0) {
        values.put("kind", random.nextBoolean() ? "x" : "y");
      }
      if (random.nextInt(4) > 0) {
        values.put("a_ms", (long) random.nextInt(100));
      }
      if (random.nextInt(3) == 0) {
        values.put("b_ms", random.nextInt(400) / 4.0);
      }
      if (random.nextInt(2) == 0) {
        values.put(
            "bytes",
            switch (random.nextInt(3)) {
              case 0 -> Integer.toString(random.nextInt(5000));
              case 1 -> "-";
              default -> List.of((long) random.nextInt(9), (long) random.nextInt(9));
            });
      }
      if (random.nextInt(5) == 0) {
        values.put("note", "n" + random.nextInt(3));
      }
      if (random.nextInt(4) == 0) {
        values.put("_z", (long) random.nextInt(7));
      }
      rows.add(values);
    }
    return rows;
  }
}
