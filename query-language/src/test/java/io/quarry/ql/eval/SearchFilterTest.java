package io.quarry.ql.eval;

import static io.quarry.ql.eval.CompiledEvaluatorTest.pick;
import static io.quarry.ql.eval.CompiledEvaluatorTest.randomPage;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.ComparisonOperator;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.exec.PageRow;
import io.quarry.ql.exec.Row;
import io.quarry.ql.exec.RowPredicates;
import io.quarry.ql.parser.Position;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * A compiled {@code search} of comparisons keeps exactly the positions {@link RowPredicates} keeps
 * rows: random comparisons, {@code IN}, {@code AND}/{@code OR}/{@code NOT} over random pages of
 * every block type, numbers written as text, multivalues, nulls and absent fields.
 */
class SearchFilterTest {
  private static final String[] FIELDS = {"l", "d", "b", "s", "n", "m", "_time", "absent"};
  private static final String[] VALUES = {
    "0",
    "1",
    "-1",
    "500",
    "404",
    "1024",
    "2.5",
    "-0.25",
    "1e2",
    "abc",
    "a*",
    "B",
    "10.1.2.0/24",
    "true",
    "1767744000",
    "",
    "007",
    "+3"
  };
  private static final Position NOWHERE = Position.START;

  @Test
  void keepsThePositionsTheRowPredicateAccepts() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    PageRow row = new PageRow(Map.of());
    for (int round = 0; round < 500; round++) {
      Page page = randomPage(random);
      SearchExpression expression = randomSearch(random, 3);
      Predicate<Row> predicate = RowPredicates.compile(expression);
      int[] kept = new int[page.positionCount()];
      int count = SearchFilter.compile(expression).select(page, kept);
      List<Integer> expected = new ArrayList<>();
      for (int p = 0; p < page.positionCount(); p++) {
        if (predicate.test(row.at(page, p))) {
          expected.add(p);
        }
      }
      List<Integer> actual = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        actual.add(kept[i]);
      }
      assertThat(actual).as("seed %d: search %s", seed, expression).isEqualTo(expected);
    }
  }

  private static SearchExpression randomSearch(Random random, int depth) {
    int kind = random.nextInt(depth <= 0 ? 2 : 5);
    return switch (kind) {
      case 0 ->
          new SearchExpression.Comparison(
              pick(random, FIELDS),
              pick(random, ComparisonOperator.values()),
              pick(random, VALUES),
              false,
              NOWHERE);
      case 1 ->
          new SearchExpression.In(
              pick(random, FIELDS), List.of(pick(random, VALUES), pick(random, VALUES)), NOWHERE);
      case 2 -> new SearchExpression.And(operands(random, depth));
      case 3 -> new SearchExpression.Or(operands(random, depth));
      default -> new SearchExpression.Not(randomSearch(random, depth - 1));
    };
  }

  private static List<SearchExpression> operands(Random random, int depth) {
    List<SearchExpression> operands = new ArrayList<>();
    for (int i = 0, n = 2 + random.nextInt(2); i < n; i++) {
      operands.add(randomSearch(random, depth - 1));
    }
    return operands;
  }
}
