// Generated from src/main/templates/X-BlockCopies.java.tmpl: do not edit; edit the template, then
// run the test that lists it with -Dquarry.regenerate=true (GeneratedSources, plugins/api tests).
package io.quarry.ql.engine;

import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.BooleanBlock;

/** {@link BlockCopies} of a boolean block: chosen positions or values as a new boolean block. */
final class BooleanBlockCopies {
  private BooleanBlockCopies() {}

  /** {@link BlockCopies#take(BlockFactory, io.quarry.plugin.api.data.Block, int[], int)}. */
  static BooleanBlock take(BlockFactory factory, BooleanBlock block, int[] positions, int count) {
    BooleanBlock.Builder builder = factory.newBooleanBlockBuilder(count);
    for (int i = 0; i < count; i++) {
      int p = positions[i];
      int n = block.getValueCount(p);
      int first = block.getFirstValueIndex(p);
      if (n == 0) {
        builder.appendNull();
      } else if (n == 1) {
        builder.append(block.getBooleanValue(first));
      } else {
        builder.beginPositionEntry();
        for (int v = first; v < first + n; v++) {
          builder.append(block.getBooleanValue(v));
        }
        builder.endPositionEntry();
      }
    }
    return builder.build();
  }

  /** {@link BlockCopies#takeValues}. */
  static BooleanBlock takeValues(
      BlockFactory factory, BooleanBlock block, int[] valueIndexes, int count) {
    BooleanBlock.Builder builder = factory.newBooleanBlockBuilder(count);
    for (int i = 0; i < count; i++) {
      if (valueIndexes[i] < 0) {
        builder.appendNull();
      } else {
        builder.append(block.getBooleanValue(valueIndexes[i]));
      }
    }
    return builder.build();
  }
}
