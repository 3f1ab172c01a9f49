package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.ByteSlice;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.engine.aggregation.BytesKeyHash;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The build side of {@code join} on pages ({@link HashJoinOperator}): the subsearch's rows by the
 * text of their join fields' values — {@link SearchTextFormat#text}, {@code _time} as epoch
 * seconds; a multivalue field's values all, in order (its value is them together: a row joins one
 * holding the same values, not one of them) — each key's rows in the subsearch's order; a row
 * missing a join field is in no entry. The keys are UTF-8 bytes in a {@link BytesKeyHash} (each
 * field's value count, then each value's byte length and text, counts and lengths as varints: no
 * byte inside a value can stand for a boundary, so one value holding any bytes never equals a
 * multivalue), so the probe side writes a position's key straight from its blocks — a text value's
 * bytes as they lie in the block, no {@code String} — and looks it up without adding it. Built once
 * per set of join fields.
 */
final class JoinHashTable {
  private static final int[] NONE = new int[0];

  private final List<String> fields;
  private final BytesKeyHash keys = new BytesKeyHash();
  private final int[][] rowsById;
  private final ByteSlice slice = new ByteSlice();
  private byte[] key = new byte[64];

  JoinHashTable(SubsearchRows subsearch, List<String> fields) {
    this.fields = List.copyOf(fields);
    List<List<Integer>> rows = new ArrayList<>();
    for (int row = 0; row < subsearch.rows(); row++) {
      int length = 0;
      boolean complete = true;
      for (String field : this.fields) {
        List<Object> values = subsearch.values(row, field);
        if (values.isEmpty()) {
          complete = false;
          break;
        }
        length = texts(length, field, values);
      }
      if (!complete) {
        continue;
      }
      int id = keys.id(key, 0, length);
      if (id < 0) {
        id = -id - 1;
        rows.add(new ArrayList<>(1));
      }
      rows.get(id).add(row);
    }
    this.rowsById = new int[rows.size()][];
    for (int id = 0; id < rowsById.length; id++) {
      rowsById[id] = rows.get(id).stream().mapToInt(Integer::intValue).toArray();
    }
  }

  /** The join fields' blocks of a page, looked up once per page (null where the page lacks one). */
  Block[] blocks(Page page) {
    Block[] blocks = new Block[fields.size()];
    for (int f = 0; f < blocks.length; f++) {
      blocks[f] = page.block(fields.get(f));
    }
    return blocks;
  }

  /**
   * The subsearch rows whose join fields equal a position's ({@code blocks} from {@link #blocks}),
   * in the subsearch's order (the table's own array: not to be changed).
   */
  int[] matches(Block[] blocks, int position) {
    int length = 0;
    for (int f = 0; f < blocks.length; f++) {
      Block block = blocks[f];
      if (block == null || block.getValueCount(position) == 0) {
        return NONE;
      }
      int first = block.getFirstValueIndex(position);
      if (block instanceof BytesBlock bytes) {
        int count = block.getValueCount(position);
        length = varint(length, count);
        for (int v = first; v < first + count; v++) {
          bytes.getBytes(v, slice);
          length = bytes(length, slice.bytes(), slice.offset(), slice.length());
        }
      } else {
        List<Object> values = SubsearchRows.nonNull(Values.valuesOf(block, position));
        if (values.isEmpty()) {
          return NONE;
        }
        length = texts(length, fields.get(f), values);
      }
    }
    int id = keys.find(key, 0, length);
    return id < 0 ? NONE : rowsById[id];
  }

  /**
   * Appends a field's values (their count, then each value's text after its length) to the key
   * being written; its new length.
   */
  private int texts(int length, String field, List<Object> values) {
    length = varint(length, values.size());
    for (Object value : values) {
      byte[] utf8 = SearchTextFormat.text(field, value).getBytes(StandardCharsets.UTF_8);
      length = bytes(length, utf8, 0, utf8.length);
    }
    return length;
  }

  /** Appends one value's bytes, after their count; the key's new length. */
  private int bytes(int length, byte[] bytes, int offset, int count) {
    length = varint(length, count);
    if (length + count > key.length) {
      key = Arrays.copyOf(key, Math.max(key.length * 2, length + count));
    }
    System.arraycopy(bytes, offset, key, length, count);
    return length + count;
  }

  /** Appends a non-negative int as a varint (7 bits a byte, low first); the key's new length. */
  private int varint(int length, int value) {
    if (length + 5 > key.length) {
      key = Arrays.copyOf(key, key.length * 2);
    }
    while ((value & ~0x7F) != 0) {
      key[length++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    key[length++] = (byte) value;
    return length;
  }
}
