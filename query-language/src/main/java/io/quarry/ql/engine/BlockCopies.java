package io.quarry.ql.engine;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.BooleanBlock;
import io.quarry.plugin.api.data.ByteSlice;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * Copies of chosen positions or values of blocks and pages, in their own types with multivalues
 * kept: how filtering ({@code regex}) and expanding ({@code mvexpand}) build their output. The
 * copies of a long, double or boolean block are {@code LongBlockCopies} and its kin, generated from
 * {@code src/main/templates/X-BlockCopies.java.tmpl} ({@code GeneratedCopiesTest}).
 */
public final class BlockCopies {
  private BlockCopies() {}

  /**
   * A new block of {@code block}'s positions {@code positions[0 .. count)} in that order (a
   * position may repeat), multivalues kept, reserved through {@code factory}.
   */
  public static Block take(BlockFactory factory, Block block, int[] positions, int count) {
    switch (block) {
      case LongBlock longs -> {
        return LongBlockCopies.take(factory, longs, positions, count);
      }
      case DoubleBlock doubles -> {
        return DoubleBlockCopies.take(factory, doubles, positions, count);
      }
      case BooleanBlock booleans -> {
        return BooleanBlockCopies.take(factory, booleans, positions, count);
      }
      case BytesBlock bytes -> {
        return takeBytes(factory, bytes, positions, count);
      }
    }
  }

  /**
   * {@link #take} of a string block, in its form: a constant stays a constant, a dictionary block
   * becomes one over the same dictionary (its ordinals taken), a plain block copies the bytes.
   */
  private static BytesBlock takeBytes(
      BlockFactory factory, BytesBlock bytes, int[] positions, int count) {
    if (bytes.isConstant()) {
      BytesBlock constant = BytesBlock.constant(bytes.dictionary().getStringValue(0), count);
      factory.reserve(constant);
      return constant;
    }
    if (bytes.dictionary() != null) {
      BytesBlock.OrdinalBuilder builder =
          factory.newOrdinalBytesBlockBuilder(bytes.dictionary(), count);
      copyPositions(
          bytes,
          positions,
          count,
          builder::appendNull,
          builder::beginPositionEntry,
          builder::endPositionEntry,
          v -> builder.appendOrdinal(bytes.getOrdinal(v)));
      return builder.build();
    }
    BytesBlock.Builder builder = factory.newBytesBlockBuilder(count);
    ByteSlice slice = new ByteSlice();
    copyPositions(
        bytes,
        positions,
        count,
        builder::appendNull,
        builder::beginPositionEntry,
        builder::endPositionEntry,
        v -> appendValue(builder, bytes, v, slice));
    return builder.build();
  }

  /**
   * Copies one value of a plain string block, a number's tags kept ({@code BytesBlock.isNumber},
   * {@code isDouble}).
   */
  private static void appendValue(
      BytesBlock.Builder builder, BytesBlock bytes, int valueIndex, ByteSlice slice) {
    bytes.getBytes(valueIndex, slice);
    if (bytes.mayHaveNumbers() && bytes.isDouble(valueIndex)) {
      builder.appendDouble(slice.bytes(), slice.offset(), slice.length());
    } else if (bytes.mayHaveNumbers() && bytes.isNumber(valueIndex)) {
      builder.appendNumber(slice.bytes(), slice.offset(), slice.length());
    } else {
      builder.append(slice.bytes(), slice.offset(), slice.length());
    }
  }

  /**
   * The loop of a copy of positions {@code positions[0 .. count)} of {@code from}: per position a
   * null, one value, or a position entry of its values, each value given by its value index in
   * {@code from}.
   */
  private static void copyPositions(
      Block from,
      int[] positions,
      int count,
      Runnable appendNull,
      Runnable beginPositionEntry,
      Runnable endPositionEntry,
      IntConsumer appendValue) {
    for (int i = 0; i < count; i++) {
      int p = positions[i];
      int n = from.getValueCount(p);
      int first = from.getFirstValueIndex(p);
      if (n == 0) {
        appendNull.run();
      } else if (n == 1) {
        appendValue.accept(first);
      } else {
        beginPositionEntry.run();
        for (int v = first; v < first + n; v++) {
          appendValue.accept(v);
        }
        endPositionEntry.run();
      }
    }
  }

  /**
   * A new block of one value per position: the value at each value index of {@code block} ({@code
   * -1}: a null), for {@code valueIndexes[0 .. count)}.
   */
  public static Block takeValues(BlockFactory factory, Block block, int[] valueIndexes, int count) {
    switch (block) {
      case LongBlock longs -> {
        return LongBlockCopies.takeValues(factory, longs, valueIndexes, count);
      }
      case DoubleBlock doubles -> {
        return DoubleBlockCopies.takeValues(factory, doubles, valueIndexes, count);
      }
      case BooleanBlock booleans -> {
        return BooleanBlockCopies.takeValues(factory, booleans, valueIndexes, count);
      }
      case BytesBlock bytes -> {
        BytesBlock.Builder builder = factory.newBytesBlockBuilder(count);
        ByteSlice slice = new ByteSlice();
        for (int i = 0; i < count; i++) {
          if (valueIndexes[i] < 0) {
            builder.appendNull();
          } else {
            appendValue(builder, bytes, valueIndexes[i], slice);
          }
        }
        return builder.build();
      }
    }
  }

  /**
   * The page's positions {@code positions[0 .. count)} as a new page (every column copied), the
   * input page released; the input page itself when that is every position in order.
   */
  public static Page take(BlockFactory factory, Page page, int[] positions, int count) {
    if (count == page.positionCount() && isIdentity(positions, count)) {
      return page;
    }
    List<Block> blocks = new ArrayList<>(page.blocks().size());
    for (Block block : page.blocks()) {
      blocks.add(take(factory, block, positions, count));
    }
    factory.release(page);
    return new Page(page.schema(), blocks, count);
  }

  /**
   * The page's positions {@code positions[0 .. count)} as a new page, copied outside any memory
   * account (a page passing through the engine's map side, not held); the page itself when that is
   * every position in order.
   */
  public static Page filter(Page page, int[] positions, int count) {
    if (count == page.positionCount() && isIdentity(positions, count)) {
      return page;
    }
    // an account of this copy alone, dropped with it (one shared for all copies would keep each
    // dictionary it was asked to count once, for good)
    BlockFactory unaccounted =
        new BlockFactory(io.quarry.plugin.api.data.MemoryAccount.unbounded("page copies"));
    List<Block> blocks = new ArrayList<>(page.blocks().size());
    for (Block block : page.blocks()) {
      blocks.add(take(unaccounted, block, positions, count));
    }
    return new Page(page.schema(), blocks, count);
  }

  private static boolean isIdentity(int[] positions, int count) {
    for (int i = 0; i < count; i++) {
      if (positions[i] != i) {
        return false;
      }
    }
    return true;
  }
}
