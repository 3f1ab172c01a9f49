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
 * text of their join fields' first values — {@link SearchTextFormat#text}, {@code _time} as epoch
 * seconds — each key's rows in the subsearch's order; a row missing a join field is in no entry.
 * The keys are UTF-8 bytes in a {@link BytesKeyHash} (each field's text after a 0 byte), so the
 * probe side writes a position's key straight from its blocks — a text value's bytes as they lie in
 * the block, no {@code String} — and looks it up without adding it. Built once per set of join
 * fields.
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
        length = text(length, SearchTextFormat.text(field, values.get(0)));
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
        bytes.getBytes(first, slice);
        length = bytes(length, slice.bytes(), slice.offset(), slice.length());
      } else {
        List<Object> values = SubsearchRows.nonNull(block.getValues(position));
        if (values.isEmpty()) {
          return NONE;
        }
        length = text(length, SearchTextFormat.text(fields.get(f), values.get(0)));
      }
    }
    int id = keys.find(key, 0, length);
    return id < 0 ? NONE : rowsById[id];
  }

  /** Appends a field's text (after a 0 byte) to the key being written; its new length. */
  private int text(int length, String text) {
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    return bytes(length, utf8, 0, utf8.length);
  }

  private int bytes(int length, byte[] bytes, int offset, int count) {
    if (length + 1 + count > key.length) {
      key = Arrays.copyOf(key, Math.max(key.length * 2, length + 1 + count));
    }
    key[length] = 0;
    System.arraycopy(bytes, offset, key, length + 1, count);
    return length + 1 + count;
  }
}
