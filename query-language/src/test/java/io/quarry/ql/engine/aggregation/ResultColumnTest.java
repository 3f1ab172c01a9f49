package io.quarry.ql.engine.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.ql.parser.Parser;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The typed result columns of a {@code stats} answer ({@link ResultColumn} through {@link
 * HashAggregationOperator}), against answers computed by hand: whole numbers as a long block with
 * nulls, doubles throughout once a column has a fraction, and a column whose later group answers
 * text keeps the numbers of the groups before it.
 */
class ResultColumnTest {

  private static HashAggregationOperator operator(String command, int pageSize) {
    StatsCommand stats =
        (StatsCommand)
            new Parser(CommandRegistry.builtIns()).parse("* | " + command).commands().get(1);
    return new HashAggregationOperator(stats, MemoryTracker.unbounded("stats"), pageSize);
  }

  /**
   * A page of one row per group: {@code g} its text, {@code n} one long, one double or one text.
   */
  private static Page page(String g, Object n) {
    Block value =
        switch (n) {
          case Long whole -> LongBlock.builder(DataType.LONG, 1).append(whole).build();
          case Double fraction -> DoubleBlock.builder(1).append(fraction).build();
          default -> BytesBlock.builder(1).append((String) n).build();
        };
    return new Page(
        new Schema(
            List.of(
                new Schema.Column("g", DataType.STRING), new Schema.Column("n", value.dataType()))),
        List.of(BytesBlock.builder(1).append(g).build(), value),
        1);
  }

  private static List<Page> answer(HashAggregationOperator operator) {
    operator.finish();
    List<Page> pages = new ArrayList<>();
    for (Page page = operator.getOutput(); page != null; page = operator.getOutput()) {
      pages.add(page);
    }
    operator.close();
    return pages;
  }

  @Test
  void wholeNumbersAreALongBlockWithNullsInGroupOrder() {
    HashAggregationOperator operator = operator("stats sum(n) AS s, count by g", 2);
    // added in id order c, a, b; answered in g's order a, b, c; b has no number to sum
    operator.addInput(page("c", 3L));
    operator.addInput(page("a", 7L));
    operator.addInput(page("b", "x"));
    operator.addInput(page("a", 5L));
    List<Page> pages = answer(operator);
    assertThat(pages).hasSize(2);
    LongBlock sums = (LongBlock) pages.get(0).block(1);
    assertThat(sums.getLong(0)).isEqualTo(12L);
    assertThat(sums.isNull(1)).isTrue();
    assertThat(((LongBlock) pages.get(1).block(1)).getLong(0)).isEqualTo(3L);
    LongBlock counts = (LongBlock) pages.get(0).block(2);
    assertThat(List.of(counts.getLong(0), counts.getLong(1))).containsExactly(2L, 1L);
  }

  @Test
  void aFractionAnywhereMakesTheColumnDoubles() {
    HashAggregationOperator operator = operator("stats sum(n) AS s by g", 1);
    operator.addInput(page("a", 4L));
    operator.addInput(page("b", 2.5));
    List<Page> pages = answer(operator);
    // a's whole 4 is a double on its own page too: the column has a fraction on another page
    assertThat(((DoubleBlock) pages.get(0).block(1)).getDouble(0)).isEqualTo(4.0);
    assertThat(((DoubleBlock) pages.get(1).block(1)).getDouble(0)).isEqualTo(2.5);
  }

  @Test
  void textAfterNumbersKeepsTheNumbersBeforeIt() {
    HashAggregationOperator operator = operator("stats first(n) AS f by g", 8);
    // group ids: a (a long), b (a text): the column turns to objects at b and keeps a's number
    operator.addInput(page("a", 4L));
    operator.addInput(page("b", "x"));
    Page answer = answer(operator).get(0);
    Block firsts = answer.block(1);
    assertThat(firsts.positionCount()).isEqualTo(2);
    assertThat(List.of(firsts.getObject(0).toString(), firsts.getObject(1).toString()))
        .containsExactly("4", "x");
  }
}
