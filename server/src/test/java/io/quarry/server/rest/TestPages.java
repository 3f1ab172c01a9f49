package io.quarry.server.rest;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import java.util.ArrayList;
import java.util.List;

/** Small typed pages written by hand, for the result encoders' tests. */
final class TestPages {
  private TestPages() {}

  /** A page of columns given as name, block, name, block … in order. */
  static Page page(Object... namesAndBlocks) {
    List<Schema.Column> schema = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < namesAndBlocks.length; i += 2) {
      Block block = (Block) namesAndBlocks[i + 1];
      schema.add(new Schema.Column((String) namesAndBlocks[i], block.dataType()));
      blocks.add(block);
    }
    return new Page(new Schema(schema), blocks);
  }

  static Block longs(long... values) {
    LongBlock.Builder block = LongBlock.builder(DataType.LONG, values.length);
    for (long value : values) {
      block.append(value);
    }
    return block.build();
  }

  static Block doubles(double... values) {
    DoubleBlock.Builder block = DoubleBlock.builder(values.length);
    for (double value : values) {
      block.append(value);
    }
    return block.build();
  }

  static Block strings(String... values) {
    return multiStrings((Object[]) values);
  }

  /** A string block: null, a String, or a List of strings (a multivalue) per position. */
  static Block multiStrings(Object... positions) {
    BytesBlock.Builder block = BytesBlock.builder(positions.length);
    for (Object position : positions) {
      if (position instanceof List<?> values) {
        block.beginPositionEntry();
        values.forEach(v -> block.append((String) v));
        block.endPositionEntry();
      } else {
        block.appendNullable((String) position);
      }
    }
    return block.build();
  }

  /** A long block (or timestamp block): null, a Long, or a List of longs per position. */
  static Block multiLongs(DataType type, Object... positions) {
    LongBlock.Builder block = LongBlock.builder(type, positions.length);
    for (Object position : positions) {
      if (position instanceof List<?> values) {
        block.beginPositionEntry();
        values.forEach(v -> block.append((Long) v));
        block.endPositionEntry();
      } else {
        block.appendNullable((Long) position);
      }
    }
    return block.build();
  }
}
