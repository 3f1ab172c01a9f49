package io.quarry.ql.engine;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.BooleanBlock;
import io.quarry.plugin.api.data.ByteSlice;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * Copies of chosen positions or values of blocks and pages, in their own types with multivalues
 * kept: how filtering ({@code regex}) and expanding ({@code mvexpand}) build their output.
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
        LongBlock.Builder builder =
            longs.dataType() == DataType.TIMESTAMP
                ? factory.newTimestampBlockBuilder(count)
                : factory.newLongBlockBuilder(count);
        for (int i = 0; i < count; i++) {
          int p = positions[i];
          int n = longs.getValueCount(p);
          int first = longs.getFirstValueIndex(p);
          if (n == 0) {
            builder.appendNull();
          } else if (n == 1) {
            builder.append(longs.getLongValue(first));
          } else {
            builder.beginPositionEntry();
            for (int v = first; v < first + n; v++) {
              builder.append(longs.getLongValue(v));
            }
            builder.endPositionEntry();
          }
        }
        return builder.build();
      }
      case DoubleBlock doubles -> {
        DoubleBlock.Builder builder = factory.newDoubleBlockBuilder(count);
        for (int i = 0; i < count; i++) {
          int p = positions[i];
          int n = doubles.getValueCount(p);
          int first = doubles.getFirstValueIndex(p);
          if (n == 0) {
            builder.appendNull();
          } else if (n == 1) {
            builder.append(doubles.getDoubleValue(first));
          } else {
            builder.beginPositionEntry();
            for (int v = first; v < first + n; v++) {
              builder.append(doubles.getDoubleValue(v));
            }
            builder.endPositionEntry();
          }
        }
        return builder.build();
      }
      case BooleanBlock booleans -> {
        BooleanBlock.Builder builder = factory.newBooleanBlockBuilder(count);
        for (int i = 0; i < count; i++) {
          int p = positions[i];
          int n = booleans.getValueCount(p);
          int first = booleans.getFirstValueIndex(p);
          if (n == 0) {
            builder.appendNull();
          } else if (n == 1) {
            builder.append(booleans.getBooleanValue(first));
          } else {
            builder.beginPositionEntry();
            for (int v = first; v < first + n; v++) {
              builder.append(booleans.getBooleanValue(v));
            }
            builder.endPositionEntry();
          }
        }
        return builder.build();
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
        v -> {
          bytes.getBytes(v, slice);
          builder.append(slice.bytes(), slice.offset(), slice.length());
        });
    return builder.build();
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
        LongBlock.Builder builder =
            longs.dataType() == DataType.TIMESTAMP
                ? factory.newTimestampBlockBuilder(count)
                : factory.newLongBlockBuilder(count);
        for (int i = 0; i < count; i++) {
          if (valueIndexes[i] < 0) {
            builder.appendNull();
          } else {
            builder.append(longs.getLongValue(valueIndexes[i]));
          }
        }
        return builder.build();
      }
      case DoubleBlock doubles -> {
        DoubleBlock.Builder builder = factory.newDoubleBlockBuilder(count);
        for (int i = 0; i < count; i++) {
          if (valueIndexes[i] < 0) {
            builder.appendNull();
          } else {
            builder.append(doubles.getDoubleValue(valueIndexes[i]));
          }
        }
        return builder.build();
      }
      case BooleanBlock booleans -> {
        BooleanBlock.Builder builder = factory.newBooleanBlockBuilder(count);
        for (int i = 0; i < count; i++) {
          if (valueIndexes[i] < 0) {
            builder.appendNull();
          } else {
            builder.append(booleans.getBooleanValue(valueIndexes[i]));
          }
        }
        return builder.build();
      }
      case BytesBlock bytes -> {
        BytesBlock.Builder builder = factory.newBytesBlockBuilder(count);
        ByteSlice slice = new ByteSlice();
        for (int i = 0; i < count; i++) {
          if (valueIndexes[i] < 0) {
            builder.appendNull();
          } else {
            bytes.getBytes(valueIndexes[i], slice);
            builder.append(slice.bytes(), slice.offset(), slice.length());
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
