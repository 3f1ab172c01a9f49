// Generated from src/main/templates/X-BlockCopies.java.tmpl: do not edit; edit the template, then
// run the test that lists it with -Dquarry.regenerate=true (GeneratedSources, plugins/api tests).
package io.quarry.ql.engine;

import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.DoubleBlock;

/** {@link BlockCopies} of a double block: chosen positions or values as a new double block. */
final class DoubleBlockCopies {
  private DoubleBlockCopies() {}

  /** {@link BlockCopies#take(BlockFactory, io.quarry.plugin.api.data.Block, int[], int)}. */
  static DoubleBlock take(BlockFactory factory, DoubleBlock block, int[] positions, int count) {
    DoubleBlock.Builder builder = factory.newDoubleBlockBuilder(count);
    for (int i = 0; i < count; i++) {
      int p = positions[i];
      int n = block.getValueCount(p);
      int first = block.getFirstValueIndex(p);
      if (n == 0) {
        builder.appendNull();
      } else if (n == 1) {
        builder.append(block.getDoubleValue(first));
      } else {
        builder.beginPositionEntry();
        for (int v = first; v < first + n; v++) {
          builder.append(block.getDoubleValue(v));
        }
        builder.endPositionEntry();
      }
    }
    return builder.build();
  }

  /** {@link BlockCopies#takeValues}. */
  static DoubleBlock takeValues(
      BlockFactory factory, DoubleBlock block, int[] valueIndexes, int count) {
    DoubleBlock.Builder builder = factory.newDoubleBlockBuilder(count);
    for (int i = 0; i < count; i++) {
      if (valueIndexes[i] < 0) {
        builder.appendNull();
      } else {
        builder.append(block.getDoubleValue(valueIndexes[i]));
      }
    }
    return builder.build();
  }
}
