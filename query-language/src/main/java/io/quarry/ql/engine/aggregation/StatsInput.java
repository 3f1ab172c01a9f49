package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import java.util.List;

/**
 * What {@code stats} reads of an input page besides the functions' fields: its by-fields' blocks
 * and each position's {@code _time} ({@link HashAggregationOperator}, {@link RunningGroups}).
 */
final class StatsInput {
  private StatsInput() {}

  /**
   * The page's blocks of {@code groupBy}, in a new array: its exact type is known, so a store needs
   * no array-store check ({@link HashAggregationOperator#addInput}).
   */
  static Block[] keyBlocks(Page page, List<String> groupBy) {
    Block[] blocks = new Block[groupBy.size()];
    for (int k = 0; k < blocks.length; k++) {
      blocks[k] = page.block(groupBy.get(k));
    }
    return blocks;
  }

  /**
   * A position's {@code _time} in epoch microseconds, Long.MIN_VALUE when it has none (or {@code
   * _time} is not a number column here).
   */
  static long time(Block times, int position) {
    if (times instanceof LongBlock longs && longs.getValueCount(position) > 0) {
      return longs.getLongValue(longs.getFirstValueIndex(position));
    }
    return Long.MIN_VALUE;
  }
}
