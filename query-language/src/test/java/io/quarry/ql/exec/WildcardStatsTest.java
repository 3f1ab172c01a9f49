package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code stats} with wildcard fields, on one operator and split into partials. */
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

  private static List<Map<String, Object>> collect(
      java.util.function.Function<RowSink, Aggregator> make, boolean split) {
    List<Map<String, Object>> out = new ArrayList<>();
    RowSink end =
        new RowSink() {
          @Override
          public boolean accept(Row row) {
            Map<String, Object> values = new LinkedHashMap<>();
            row.fieldNames().forEach(f -> values.put(f, row.values(f).get(0)));
            out.add(values);
            return true;
          }

          @Override
          public void finish() {}
        };
    Aggregator total = make.apply(end);
    if (split) {
      Aggregator first = total.newPartial();
      Aggregator second = total.newPartial();
      first.accept(new MapRow(ROWS.get(0)));
      second.accept(new MapRow(ROWS.get(1)));
      first.accept(new MapRow(ROWS.get(2)));
      total.merge(first);
      total.merge(second);
    } else {
      ROWS.forEach(r -> total.accept(new MapRow(r)));
    }
    total.finish();
    return out;
  }

  @Test
  void everyNumericFieldButTheByFieldsAndInternalOnes() {
    for (boolean split : new boolean[] {false, true}) {
      List<Map<String, Object>> rows =
          collect(
              end ->
                  new WildcardStatsOperator(
                      stats("stats avg(*) by host"), end, MemoryTracker.unbounded("t")),
              split);
      assertThat(rows).hasSize(2);
      assertThat(rows.get(0)).containsOnlyKeys("host", "avg(x)").containsEntry("avg(x)", 2.0);
      assertThat(rows.get(1)).containsEntry("host", "b").containsEntry("avg(x)", 10.0);
    }
  }

  @Test
  void asNamesTakeWhatTheWildcardMatched() {
    List<Map<String, Object>> rows =
        collect(
            end ->
                new WildcardStatsOperator(
                    stats("stats count, dc(*) AS n_* , sum(_*) AS s_*"),
                    end,
                    MemoryTracker.unbounded("t")),
            false);
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0))
        .containsEntry("count", 3L)
        .containsEntry("n_host", 2L)
        .containsEntry("n_x", 3L)
        .containsEntry("n_y", 2L)
        .containsEntry("s_z", 5L);
  }
}
