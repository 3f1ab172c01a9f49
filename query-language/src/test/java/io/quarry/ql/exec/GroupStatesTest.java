package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@code stats} with one by-field and simple functions keeps its groups in {@link GroupStates};
 * with a second (constant) by-field the same groups take the accumulator path. Both must answer
 * alike, also split over partials, with multivalued and missing by-fields, non-numeric and
 * fractional values.
 */
class GroupStatesTest {
  private static final String FUNCTIONS =
      "count, count(x) as cx, sum(x), avg(x), min(x), max(x), range(x), sum(y) as sy, min(y) as"
          + " miny";

  private static StatsCommand stats(String text) {
    return (StatsCommand)
        new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
  }

  private static List<TestRow> rows(long seed) {
    Random random = new Random(seed);
    List<TestRow> rows = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      Object k =
          switch (random.nextInt(20)) {
            case 0 -> List.of("k1", "k" + random.nextInt(3)); // multivalued: one group per value
            case 1 -> List.of(); // no value: no group
            default -> "k" + random.nextInt(3_000);
          };
      Object x =
          switch (random.nextInt(5)) {
            case 0 -> "n/a"; // not a number: counted by count(x), ignored by the others
            case 1 -> random.nextInt(100) + 0.25;
            case 2 -> List.of(1L, 2L); // two values
            default -> (long) random.nextInt(1_000) - 500;
          };
      rows.add(
          TestRow.of("e" + i, "k", k, "c", "same", "x", x, "y", String.valueOf(random.nextInt(9))));
    }
    return rows;
  }

  private static List<String> run(String command, List<TestRow> rows, int partials) {
    List<String> out = new ArrayList<>();
    StatsOperator total =
        new StatsOperator(
            stats(command),
            new RowSink() {
              @Override
              public boolean accept(Row row) {
                StringBuilder line = new StringBuilder();
                for (String field :
                    List.of(
                        "k",
                        "count",
                        "cx",
                        "sum(x)",
                        "avg(x)",
                        "min(x)",
                        "max(x)",
                        "range(x)",
                        "sy",
                        "miny")) {
                  line.append(field).append('=').append(row.values(field)).append(' ');
                }
                out.add(line.toString());
                return true;
              }

              @Override
              public void finish() {}
            });
    if (partials == 0) {
      rows.forEach(total::accept);
    } else {
      List<Aggregator> parts = new ArrayList<>();
      for (int p = 0; p < partials; p++) {
        parts.add(total.newPartial());
      }
      for (int i = 0; i < rows.size(); i++) {
        parts.get(i % partials).accept(rows.get(i));
        if (i == rows.size() / 2) {
          total.merge(parts.get(0)); // merged mid-way, then used again
        }
      }
      parts.forEach(total::merge);
    }
    total.finish();
    return out;
  }

  @Test
  void answersAsTheAccumulatorsDo() {
    for (long seed = 1; seed <= 3; seed++) {
      List<TestRow> rows = rows(seed);
      List<String> accumulators = run("stats " + FUNCTIONS + " by k, c", rows, 0);
      assertThat(accumulators).hasSizeGreaterThan(2_900);
      assertThat(run("stats " + FUNCTIONS + " by k", rows, 0)).isEqualTo(accumulators);
      assertThat(run("stats " + FUNCTIONS + " by k", rows, 3)).isEqualTo(accumulators);
    }
  }

  @Test
  void onlySimpleFunctionsAreHeld() {
    assertThat(GroupStates.canHold(stats("stats count, sum(x), range(_time) by k").aggregations()))
        .isTrue();
    assertThat(GroupStates.canHold(stats("stats count, dc(x) by k").aggregations())).isFalse();
    assertThat(GroupStates.canHold(stats("stats stdev(x) by k").aggregations())).isFalse();
  }
}
