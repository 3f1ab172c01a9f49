package io.quarry.ql.engine;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BooleanBlock;
import io.quarry.plugin.api.data.ByteSlice;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.List;

/** Operations on whole pages that the plugin API's {@code Page} does not have (yet: SPI 2.0). */
public final class Pages {
  private Pages() {}

  /**
   * The page of positions {@code positions[0, count)} of {@code page}, in that order, every value
   * of each (a multivalue stays one); the page itself when that is all of it.
   */
  public static Page filter(Page page, int[] positions, int count) {
    if (count == page.positionCount()) {
      boolean identity = true;
      for (int i = 0; i < count && identity; i++) {
        identity = positions[i] == i;
      }
      if (identity) {
        return page;
      }
    }
    List<Block> blocks = new ArrayList<>(page.blocks().size());
    for (Block block : page.blocks()) {
      blocks.add(filter(block, positions, count));
    }
    return new Page(page.schema(), blocks, count);
  }

  private static Block filter(Block block, int[] positions, int count) {
    return switch (block) {
      case LongBlock longs -> {
        LongBlock.Builder out = LongBlock.builder(longs.dataType(), count);
        for (int i = 0; i < count; i++) {
          int p = positions[i];
          int n = longs.getValueCount(p);
          int first = longs.getFirstValueIndex(p);
          if (n == 0) {
            out.appendNull();
          } else if (n == 1) {
            out.append(longs.getLongValue(first));
          } else {
            out.beginPositionEntry();
            for (int v = first; v < first + n; v++) {
              out.append(longs.getLongValue(v));
            }
            out.endPositionEntry();
          }
        }
        yield out.build();
      }
      case DoubleBlock doubles -> {
        DoubleBlock.Builder out = DoubleBlock.builder(count);
        for (int i = 0; i < count; i++) {
          int p = positions[i];
          int n = doubles.getValueCount(p);
          int first = doubles.getFirstValueIndex(p);
          if (n == 0) {
            out.appendNull();
          } else if (n == 1) {
            out.append(doubles.getDoubleValue(first));
          } else {
            out.beginPositionEntry();
            for (int v = first; v < first + n; v++) {
              out.append(doubles.getDoubleValue(v));
            }
            out.endPositionEntry();
          }
        }
        yield out.build();
      }
      case BooleanBlock booleans -> {
        BooleanBlock.Builder out = BooleanBlock.builder(count);
        for (int i = 0; i < count; i++) {
          int p = positions[i];
          int n = booleans.getValueCount(p);
          int first = booleans.getFirstValueIndex(p);
          if (n == 0) {
            out.appendNull();
          } else if (n == 1) {
            out.append(booleans.getBooleanValue(first));
          } else {
            out.beginPositionEntry();
            for (int v = first; v < first + n; v++) {
              out.append(booleans.getBooleanValue(v));
            }
            out.endPositionEntry();
          }
        }
        yield out.build();
      }
      case BytesBlock bytes -> {
        BytesBlock.Builder out = BytesBlock.builder(count);
        ByteSlice slice = new ByteSlice();
        for (int i = 0; i < count; i++) {
          int p = positions[i];
          int n = bytes.getValueCount(p);
          int first = bytes.getFirstValueIndex(p);
          if (n == 0) {
            out.appendNull();
          } else if (n == 1) {
            bytes.getBytes(first, slice);
            out.append(slice.bytes(), slice.offset(), slice.length());
          } else {
            out.beginPositionEntry();
            for (int v = first; v < first + n; v++) {
              bytes.getBytes(v, slice);
              out.append(slice.bytes(), slice.offset(), slice.length());
            }
            out.endPositionEntry();
          }
        }
        yield out.build();
      }
    };
  }
}
