package io.quarry.ql.exec;

import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.SubsearchCommand;
import io.quarry.ql.ast.SubsearchResult;
import io.quarry.ql.engine.BlockCopies;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code join} on whole pages: the subsearch's pages are the build side ({@link JoinHashTable}, of
 * the join fields), each input page the probe side. A probed position whose join fields all have a
 * value and equal a key (a multivalue field: the same values in the same order, {@link
 * JoinHashTable}) is repeated once per matching subsearch row (up to {@code max}, in the
 * subsearch's order); an unmatched one is dropped ({@code inner}) or kept once ({@code left}/{@code
 * outer}). The output page holds every input column, its positions copied in the probe's order
 * ({@link BlockCopies#take}), with the subsearch's columns (not the join fields) laid over it: a
 * matched subsearch row's value replaces the position's own with {@code overwrite}, else only where
 * the position has none; a subsearch column the input lacks is added after the input's. Without
 * join fields, a row's join fields are the subsearch's columns that hold a value in it or in a row
 * before it ({@link JoinFields}: Splunk's fields common to both result sets, as a stream can know
 * them; a row missing one matches nothing). One table is held at a time, reserved on the search's
 * memory account while held; the fields only grow, so at most one is built per subsearch column.
 *
 * <p>Over an event listing's rows ({@link #joinedColumns}: the operator of {@link PageCommands#of},
 * laid over the events by {@link PluginOverlayOperator}) the output page holds only the input's
 * hidden row column ({@link PluginOperators#ROW_COLUMN}) and the joined columns, the rest of each
 * row being the event's own.
 */
final class HashJoinOperator extends QueuedPageOperator {
  /** Estimated bytes per table entry (key text, map entry, row list). */
  static final long ENTRY_BYTES = 160;

  private static final int[] NO_MATCHES = new int[0];

  private final SubsearchCommand.Join join;
  private final SubsearchRows subsearch;
  private final BlockFactory factory;
  private final JoinFields common; // null with named join fields
  private final boolean joinedOnly; // the output: the row column and the joined columns only
  private JoinHashTable table;
  private List<String> tableFields;
  private long tableBytes;
  private int[] positions = new int[0];
  private int[] matched = new int[0];

  /** The join of whole pages: every input column carried. */
  HashJoinOperator(SubsearchCommand.Join join, SubsearchResult result, OperatorContext context) {
    this(join, result, context, false);
  }

  private HashJoinOperator(
      SubsearchCommand.Join join,
      SubsearchResult result,
      OperatorContext context,
      boolean joinedOnly) {
    this.join = join;
    this.factory = context.blockFactory();
    this.subsearch = new SubsearchRows(result, context, "join", 0);
    this.common = join.fields().isEmpty() ? new JoinFields(subsearch.columns()) : null;
    this.joinedOnly = joinedOnly;
  }

  /**
   * The join over rows that carry the hidden row column: its output the row column and the joined
   * columns (every other column of a row is the event's own, laid under it by the overlay).
   */
  static HashJoinOperator joinedColumns(
      SubsearchCommand.Join join, SubsearchResult result, OperatorContext context) {
    return new HashJoinOperator(join, result, context, true);
  }

  @Override
  protected void process(Page page) {
    try {
      boolean perRow = common != null;
      Block[] keyBlocks = null; // the page's blocks of the table's fields
      List<String> keyFields = null;
      int count = 0;
      for (int p = 0; p < page.positionCount(); p++) {
        int position = p;
        List<String> fields = perRow ? common.next(c -> holds(page, c, position)) : join.fields();
        int[] matches = NO_MATCHES;
        if (fields != null) {
          JoinHashTable probed = table(fields);
          if (!fields.equals(keyFields)) {
            keyBlocks = probed.blocks(page);
            keyFields = fields;
          }
          matches = probed.matches(keyBlocks, p);
        }
        if (matches.length == 0) {
          if (join.type() != SubsearchCommand.JoinType.INNER) {
            count = add(count, p, -1);
          }
          continue;
        }
        int limit = join.max() == 0 ? matches.length : (int) Math.min(join.max(), matches.length);
        for (int m = 0; m < limit; m++) {
          count = add(count, p, matches[m]);
        }
      }
      if (count > 0) {
        List<String> columns = new ArrayList<>(subsearch.columns());
        columns.remove(PluginOperators.ROW_COLUMN);
        if (!perRow) {
          columns.removeAll(join.fields());
        }
        emit(output(page, columns, count, perRow));
      }
    } finally {
      factory.release(page);
    }
  }

  private int add(int count, int position, int row) {
    if (count == positions.length) {
      positions = java.util.Arrays.copyOf(positions, Math.max(16, count * 2));
      matched = java.util.Arrays.copyOf(matched, positions.length);
    }
    positions[count] = position;
    matched[count] = row;
    return count + 1;
  }

  /**
   * The probed positions' columns ({@link #joinedOnly}: the row column only), the subsearch's
   * columns laid over them ({@code perRow}: except a row's own join fields, which keep the row's
   * values).
   */
  private Page output(Page page, List<String> columns, int count, boolean perRow) {
    List<Schema.Column> schema = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    for (int c = 0; c < page.schema().size(); c++) {
      String name = page.schema().column(c).name();
      if (joinedOnly && !name.equals(PluginOperators.ROW_COLUMN) && !columns.contains(name)) {
        continue;
      }
      Block block =
          columns.contains(name)
              ? merged(page, name, count, perRow)
              : BlockCopies.take(factory, page.block(c), positions, count);
      schema.add(new Schema.Column(name, block.dataType()));
      blocks.add(block);
    }
    for (String name : columns) {
      if (page.schema().indexOf(name) < 0) {
        Block block = merged(page, name, count, perRow);
        schema.add(new Schema.Column(name, block.dataType()));
        blocks.add(block);
      }
    }
    return new Page(new Schema(schema), blocks, count);
  }

  /**
   * A subsearch column over the output positions: theirs where it wins, else the position's (its
   * own where the column is one of the row's join fields: {@code perRow}, a value of its own).
   */
  private Block merged(Page page, String column, int count, boolean perRow) {
    List<List<Object>> cells = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      List<Object> mine = SubsearchRows.values(page, column, positions[i]);
      boolean joinField = perRow && matched[i] >= 0 && !mine.isEmpty();
      List<Object> theirs =
          matched[i] < 0 || joinField ? List.of() : subsearch.values(matched[i], column);
      boolean takeTheirs = !theirs.isEmpty() && (join.overwrite() || mine.isEmpty());
      cells.add(takeTheirs ? theirs : mine);
    }
    Block block = PageBuilder.column(column, cells);
    factory.reserve(block);
    return block;
  }

  private static boolean holds(Page page, String column, int position) {
    Block block = page.block(column);
    return block != null && !block.isNull(position);
  }

  /** The table of {@code fields}: the one held, else built in its place (reserved first). */
  private JoinHashTable table(List<String> fields) {
    if (!fields.equals(tableFields)) {
      releaseTable();
      long bytes = ENTRY_BYTES * subsearch.rows();
      factory.reserve(bytes, "join (hash table)");
      tableBytes = bytes;
      table = new JoinHashTable(subsearch, fields);
      tableFields = fields;
    }
    return table;
  }

  private void releaseTable() {
    if (tableBytes > 0) {
      factory.release(tableBytes);
    }
    tableBytes = 0;
    table = null;
    tableFields = null;
  }

  @Override
  public void close() {
    releaseTable();
    subsearch.close();
  }
}
