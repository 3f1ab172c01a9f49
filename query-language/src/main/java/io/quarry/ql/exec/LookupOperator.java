package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.ByteSlice;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.LookupCommand;
import io.quarry.ql.ast.LookupCommand.FieldMapping;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code lookup} as a {@link PageChain} stage, through {@link LookupIndex}: each position's key
 * looked up once; at a position whose key is in the table, each output field's column takes the
 * table's values (none: null), unless {@code OUTPUTNEW} and the position already has a value; every
 * other position keeps its own. An output field no position changed is left as it is; a text column
 * is written from the table's text, one that keeps a number at some positions is typed by {@link
 * PageBuilder#column}'s rules. The table and its index count against the search's memory while the
 * stage lives.
 */
final class LookupOperator extends PageTransformOperator {
  private final LookupCommand command;
  private final java.util.function.UnaryOperator<String> marks; // an output's marker, or null
  private final LookupIndex index;
  private final MemoryTracker memory;
  private final ByteSlice copied = new ByteSlice();

  LookupOperator(LookupCommand command, Evaluator evaluator) {
    this(command, evaluator, null);
  }

  /**
   * As above; with {@code marks} not null, each page leaves with, for each output field {@code f},
   * a boolean column {@code marks.apply(f)}, true at the positions where the lookup laid the
   * table's value of {@code f} over the row (the key is in the table and, with {@code OUTPUTNEW},
   * the row had no value of it), null at the others, for a consumer that must tell a table's empty
   * value from no match, or the table's value from the row's own ({@code ListedFields}).
   */
  LookupOperator(
      LookupCommand command, Evaluator evaluator, java.util.function.UnaryOperator<String> marks) {
    this.marks = marks;
    this.command = requireNonNull(command, "command is null");
    LookupTable table = evaluator.lookup(command.table());
    if (table == null) {
      throw new IllegalArgumentException("lookup table '" + command.table() + "' does not exist");
    }
    this.memory = evaluator.memory("lookup");
    memory.add(heldBytes(table));
    this.index = new LookupIndex(command, table);
  }

  /**
   * The memory a lookup holds: the table (shared with the cache, held for the search) and index.
   */
  static long heldBytes(LookupTable table) {
    return table.estimatedBytes() + MemoryTracker.ENTRY_BYTES * table.rows().size();
  }

  @Override
  protected Page process(Page page) {
    int positions = page.positionCount();
    List<List<List<String>>> matches = new ArrayList<>(positions); // null: unchanged
    boolean any = false;
    List<FieldMapping> keys = index.keys();
    Block[] keyBlocks = new Block[keys.size()];
    for (int k = 0; k < keyBlocks.length; k++) {
      keyBlocks[k] = page.block(keys.get(k).field());
    }
    for (int p = 0; p < positions; p++) {
      List<List<String>> found = index.matches(key(page, keys, keyBlocks, p));
      matches.add(found);
      any |= found != null;
    }
    List<FieldMapping> outputs = index.outputs();
    if (!any && marks == null) {
      return page;
    }
    Page result = page;
    for (int i = 0; i < outputs.size(); i++) {
      String field = outputs.get(i).field();
      Block existing = page.block(field); // the value before this lookup
      Object[] values = new Object[positions];
      boolean[] set = new boolean[positions];
      boolean changed = false;
      for (int p = 0; p < positions; p++) {
        if (matches.get(p) == null
            || command.outputNew() && existing != null && !existing.isNull(p)) {
          continue;
        }
        values[p] = index.output(matches.get(p), i);
        set[p] = true;
        changed = true;
      }
      if (changed) {
        result = result.withColumn(field, column(page, field, existing, values, set));
      }
      if (marks != null) {
        result = result.withColumn(marks.apply(field), ListingMarks.trues(set));
      }
    }
    return result;
  }

  /**
   * A position's key (each key field's first value as text), or null when a key field is absent.
   */
  private List<String> key(Page page, List<FieldMapping> keys, Block[] blocks, int position) {
    String[] key = new String[blocks.length];
    for (int k = 0; k < blocks.length; k++) {
      Block block = blocks[k];
      if (block == null || block.isNull(position)) {
        return null;
      }
      String field = keys.get(k).field();
      key[k] =
          block instanceof BytesBlock bytes && !TimeField.is(field)
              ? bytes.getStringValue(bytes.getFirstValueIndex(position))
              : LookupIndex.keyText(field, EvalValues.cell(page, field, position).get(0));
    }
    return Arrays.asList(key);
  }

  /** An output field's column: the set values where set, the position's own value elsewhere. */
  private Block column(Page page, String field, Block existing, Object[] values, boolean[] set) {
    int positions = values.length;
    if (existing == null || existing instanceof BytesBlock) {
      BytesBlock text = (BytesBlock) existing;
      BytesBlock.Builder builder = BytesBlock.builder(positions);
      for (int p = 0; p < positions; p++) {
        if (set[p]) {
          append(builder, values[p]);
        } else if (text == null || text.isNull(p)) {
          builder.appendNull();
        } else {
          int count = text.getValueCount(p);
          int first = text.getFirstValueIndex(p);
          if (count > 1) {
            builder.beginPositionEntry();
          }
          for (int v = first; v < first + count; v++) {
            text.getBytes(v, copied);
            builder.append(copied.bytes(), copied.offset(), copied.length());
          }
          if (count > 1) {
            builder.endPositionEntry();
          }
        }
      }
      return builder.build();
    }
    List<List<Object>> cells = new ArrayList<>(positions);
    for (int p = 0; p < positions; p++) {
      cells.add(set[p] ? EvalValues.values(values[p]) : EvalValues.cell(page, field, p));
    }
    return PageBuilder.column(field, cells);
  }

  /** A table value: none (null), a text, or several texts. */
  private static void append(BytesBlock.Builder builder, Object value) {
    switch (value) {
      case null -> builder.appendNull();
      case List<?> list -> {
        builder.beginPositionEntry();
        list.forEach(v -> builder.append(((String) v).getBytes(StandardCharsets.UTF_8)));
        builder.endPositionEntry();
      }
      default -> builder.append(((String) value).getBytes(StandardCharsets.UTF_8));
    }
  }

  @Override
  public void close() {
    index.clear();
    memory.release();
  }
}
