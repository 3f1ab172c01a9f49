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
 * {@code stats} with wildcard fields on pages ({@link WildcardAggregation}) against the row
 * operator ({@link WildcardStatsOperator}) on random rows whose fields differ from row to row
 * (numbers, decimals, numbers as text, text, multivalues, an internal {@code _} field, a field only
 * some pages have), cut into random pages fed to random partials merged at the end: the answer —
 * rows, columns and their order, types — must not depend on the engine or the split.
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
  void answersAsTheRowOperatorWhateverThePagesAndPartials(String command) {
    for (long seed = 0; seed < 25; seed++) {
      Random random = new Random(seed);
      List<Row> rows = randomRows(random);
      assertThat(onPages(command, rows, random))
          .as("seed %d: %s", seed, command)
          .isEqualTo(onRows(command, rows));
    }
  }

  private static StatsCommand stats(String text) {
    return (StatsCommand)
        new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
  }

  /** The row operator's rows, typed as the row engine's collector pages them. */
  private static List<String> onRows(String command, List<Row> rows) {
    List<Page> out = new ArrayList<>();
    PageCollector collector = new PageCollector(1024, out::add);
    WildcardStatsOperator operator =
        new WildcardStatsOperator(stats(command), collector, MemoryTracker.unbounded("stats"));
    rows.forEach(operator::accept);
    operator.finish();
    collector.finish();
    return layout(out);
  }

  /** Random pages of the rows into 1–3 partials, merged into the final aggregation. */
  private static List<String> onPages(String command, List<Row> rows, Random random) {
    StatsCommand stats = stats(command);
    assertThat(PageAggregator.supports(stats)).isTrue();
    PageAggregator total = PageAggregator.of(stats, null, MemoryTracker.unbounded("stats"), 1024);
    List<PageAggregator> partials = new ArrayList<>();
    int count = 1 + random.nextInt(3);
    for (int i = 0; i < count; i++) {
      partials.add(total.newPartial());
    }
    for (int from = 0; from < rows.size(); ) {
      int to = Math.min(rows.size(), from + 1 + random.nextInt(12));
      partials.get(random.nextInt(count)).addInput(PageCollector.toPage(rows.subList(from, to)));
      from = to;
    }
    partials.forEach(total::merge);
    total.finish();
    List<Page> out = new ArrayList<>();
    for (Page page = total.getOutput(); page != null; page = total.getOutput()) {
      out.add(page);
    }
    assertThat(total.isFinished()).isTrue();
    total.close();
    return layout(out);
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
  private static List<Row> randomRows(Random random) {
    List<Row> rows = new ArrayList<>();
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
      rows.add(new MapRow(values));
    }
    return rows;
  }
}
