package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.engine.aggregation.WildcardAggregation;
import io.quarry.ql.parser.Parser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code stats} with wildcard fields on the page engine, on one operator and split into partials,
 * against answers worked out by hand from the three rows.
 */
class WildcardStatsTest {
  private static final List<Map<String, Object>> ROWS =
      List.of(
          Map.of("host", "a", "x", 1L, "y", "t", "_z", 5L),
          Map.of("host", "a", "x", 3L),
          Map.of("host", "b", "x", 10L, "y", "u"));

  private static StatsCommand stats(String text) {
    return (StatsCommand)
        new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
  }

  /**
   * The page engine's answer ({@link WildcardAggregation}) over the rows above, a page each; with
   * {@code split}, two partials (rows 1 and 3, row 2) merged as the map/reduce split merges them.
   */
  private static List<Map<String, Object>> collect(String command, boolean split) {
    WildcardAggregation total =
        new WildcardAggregation(stats(command), MemoryTracker.unbounded("t"), 16);
    List<Page> rows = TestPages.pages(TestPages.cells(ROWS), 1);
    if (split) {
      PageAggregator first = total.newPartial();
      PageAggregator second = total.newPartial();
      first.addInput(rows.get(0));
      second.addInput(rows.get(1));
      first.addInput(rows.get(2));
      total.merge(first);
      total.merge(second);
    } else {
      rows.forEach(total::addInput);
    }
    total.finish();
    List<Page> out = new ArrayList<>();
    for (Page page = total.getOutput(); page != null; page = total.getOutput()) {
      out.add(page);
    }
    return TestPages.rows(out);
  }

  @Test
  void everyNumericFieldButTheByFieldsAndInternalOnes() {
    for (boolean split : new boolean[] {false, true}) {
      List<Map<String, Object>> rows = collect("stats avg(*) by host", split);
      assertThat(rows).hasSize(2);
      assertThat(rows.get(0)).containsOnlyKeys("host", "avg(x)").containsEntry("avg(x)", 2.0);
      assertThat(rows.get(1)).containsEntry("host", "b").containsEntry("avg(x)", 10.0);
    }
  }

  @Test
  void asNamesTakeWhatTheWildcardMatched() {
    List<Map<String, Object>> rows = collect("stats count, dc(*) AS n_* , sum(_*) AS s_*", false);
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0))
        .containsEntry("count", 3L)
        .containsEntry("n_host", 2L)
        .containsEntry("n_x", 3L)
        .containsEntry("n_y", 2L)
        .containsEntry("s_z", 5L);
  }

  /**
   * By x (groups 1, 3, 10): the row with x=3 has no y, so its group counts none — 0, as {@code
   * count(y)} named outright answers — and the sum of y (text) has no value anywhere.
   */
  @Test
  void countsOfAFieldAGroupLacksAreZero() {
    for (boolean split : new boolean[] {false, true}) {
      List<Map<String, Object>> rows = collect("stats count(*), dc(*) AS d_* by x", split);
      assertThat(rows).hasSize(3);
      Map<Object, Map<String, Object>> byX = new java.util.HashMap<>();
      rows.forEach(row -> byX.put(Values.toText(row.get("x")), row));
      assertThat(byX.get("3"))
          .containsEntry("count(host)", 1L)
          .containsEntry("count(y)", 0L)
          .containsEntry("d_host", 1L)
          .containsEntry("d_y", 0L);
      assertThat(byX.get("1")).containsEntry("count(y)", 1L).containsEntry("d_y", 1L);
      assertThat(byX.get("10")).containsEntry("count(y)", 1L).containsEntry("d_y", 1L);
    }
  }
}
