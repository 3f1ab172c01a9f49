package io.quarry.ql.exec;

import static io.quarry.ql.exec.PipelineTest.run;
import static io.quarry.ql.exec.PipelineTest.table;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code estdc}: HyperLogLog's estimate beside {@code dc}'s exact count. */
class EstimatedDistinctCountTest {
  @Test
  void smallCountsComeOutExactAndLargeOnesWithinTheSketchError() {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 200_000; i++) {
      // group a: 20,000 distinct values, each twice; group b: 3 distinct values
      rows.add(TestRow.of("e", "g", "a", "user", "u" + (i % 20_000)));
      if (i < 30) {
        rows.add(TestRow.of("e", "g", "b", "user", "v" + (i % 3)));
      }
    }
    List<List<Object>> table =
        table(run("* | stats estdc(user) AS est, dc(user) AS exact by g", rows, 1000));
    assertThat(table).hasSize(2);
    List<Object> a = table.get(0);
    assertThat(a.get(0)).isEqualTo("a");
    assertThat(a.get(2)).isEqualTo(20_000L);
    assertThat((Long) a.get(1)).isBetween(19_000L, 21_000L); // 3 standard errors is ±5%
    assertThat(table.get(1)).containsExactly("b", 3L, 3L);
  }

  @Test
  void sketchesMergeLikeTheirValues() {
    DistinctSketch left = new DistinctSketch();
    DistinctSketch right = new DistinctSketch();
    DistinctSketch both = new DistinctSketch();
    for (int i = 0; i < 50_000; i++) {
      (i % 2 == 0 ? left : right).add("v" + (i % 30_000));
      both.add("v" + (i % 30_000));
    }
    left.merge(right);
    assertThat(left.estimate()).isEqualTo(both.estimate());
    assertThat(both.estimate()).isBetween(28_500L, 31_500L);
    assertThat(new DistinctSketch().estimate()).isZero();
  }
}
