// Generated from src/main/templates/X-BlockCopies.java.tmpl: do not edit; edit the template, then
// run the test that lists it with -Dquarry.regenerate=true (GeneratedSources, plugins/api tests).
package io.quarry.ql.engine;

import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;

/** {@link BlockCopies} of a long block: chosen positions or values as a new long block. */
final class LongBlockCopies {
  private LongBlockCopies() {}

  /** {@link BlockCopies#take(BlockFactory, io.quarry.plugin.api.data.Block, int[], int)}. */
  static LongBlock take(BlockFactory factory, LongBlock block, int[] positions, int count) {
    LongBlock.Builder builder = newBuilder(factory, block, count);
    for (int i = 0; i < count; i++) {
      int p = positions[i];
      int n = block.getValueCount(p);
      int first = block.getFirstValueIndex(p);
      if (n == 0) {
        builder.appendNull();
      } else if (n == 1) {
        builder.append(block.getLongValue(first));
      } else {
        builder.beginPositionEntry();
        for (int v = first; v < first + n; v++) {
          builder.append(block.getLongValue(v));
        }
        builder.endPositionEntry();
      }
    }
    return builder.build();
  }

  /** {@link BlockCopies#takeValues}. */
  static LongBlock takeValues(
      BlockFactory factory, LongBlock block, int[] valueIndexes, int count) {
    LongBlock.Builder builder = newBuilder(factory, block, count);
    for (int i = 0; i < count; i++) {
      if (valueIndexes[i] < 0) {
        builder.appendNull();
      } else {
        builder.append(block.getLongValue(valueIndexes[i]));
      }
    }
    return builder.build();
  }

  /** A builder of the block's type: a timestamp block's copy is a timestamp block. */
  private static LongBlock.Builder newBuilder(BlockFactory factory, LongBlock block, int count) {
    return block.dataType() == DataType.TIMESTAMP
        ? factory.newTimestampBlockBuilder(count)
        : factory.newLongBlockBuilder(count);
  }
}
