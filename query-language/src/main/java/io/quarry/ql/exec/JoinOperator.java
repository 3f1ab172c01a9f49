package io.quarry.ql.exec;

import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.SubsearchCommand;
import io.quarry.ql.ast.SubsearchResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code join}: a hash table over the subsearch's rows keyed on the join fields' text (a field's
 * first value; rows missing one are not in it), built when the join fields are known, reserved on
 * the search's memory account while held. Each input row whose join fields all have a value and
 * equal a key gets the fields of up to {@code max} matching subsearch rows (in their order), one
 * output row each; with {@code overwrite} the subsearch's values replace the row's, else the row
 * keeps those it has. An unmatched row is dropped ({@code inner}) or kept as it is ({@code
 * left}/{@code outer}). Without join fields, a row's join fields are the subsearch's columns that
 * hold a value in it or in a row before it ({@link JoinFields}); a row missing one matches nothing.
 * One table is held at a time (the fields only grow).
 */
final class JoinOperator extends QueuedPageOperator {
  /** Estimated bytes per table entry (key text, map entry, row list). */
  static final long ENTRY_BYTES = 160;

  private final SubsearchCommand.Join join;
  private final SubsearchRows subsearch;
  private final BlockFactory factory;
  private final JoinFields common; // null with named join fields
  private Map<String, List<Integer>> table;
  private List<String> tableFields;
  private long tableBytes;

  JoinOperator(SubsearchCommand.Join join, SubsearchResult result, OperatorContext context) {
    this.join = join;
    this.factory = context.blockFactory();
    this.subsearch = new SubsearchRows(result, context, "join", 0);
    this.common = join.fields().isEmpty() ? new JoinFields(subsearch.columns()) : null;
  }

  @Override
  protected void process(Page page) {
    try {
      boolean perRow = common != null;
      List<String> columns = new ArrayList<>(subsearch.columns());
      columns.remove(PluginOperators.ROW_COLUMN);
      if (!perRow) {
        columns.removeAll(join.fields());
      }
      LongBlock ids = (LongBlock) page.block(PluginOperators.ROW_COLUMN);
      List<Long> outIds = new ArrayList<>();
      List<List<List<Object>>> cells = new ArrayList<>();
      columns.forEach(c -> cells.add(new ArrayList<>()));
      for (int p = 0; p < page.positionCount(); p++) {
        int position = p;
        List<String> fields =
            perRow
                ? common.next(c -> !SubsearchRows.values(page, c, position).isEmpty())
                : join.fields();
        String key =
            fields == null ? null : key(fields, f -> SubsearchRows.values(page, f, position));
        List<Integer> matches = key == null ? null : table(fields).get(key);
        if (matches == null) {
          if (join.type() != SubsearchCommand.JoinType.INNER) {
            outIds.add(ids.getLong(p));
            for (int c = 0; c < columns.size(); c++) {
              cells.get(c).add(SubsearchRows.values(page, columns.get(c), p));
            }
          }
          continue;
        }
        int limit = join.max() == 0 ? matches.size() : (int) Math.min(join.max(), matches.size());
        for (int m = 0; m < limit; m++) {
          int row = matches.get(m);
          outIds.add(ids.getLong(p));
          for (int c = 0; c < columns.size(); c++) {
            List<Object> mine = SubsearchRows.values(page, columns.get(c), p);
            List<Object> theirs =
                fields.contains(columns.get(c)) ? List.of() : subsearch.values(row, columns.get(c));
            boolean takeTheirs = !theirs.isEmpty() && (join.overwrite() || mine.isEmpty());
            cells.get(c).add(takeTheirs ? theirs : mine);
          }
        }
      }
      if (!outIds.isEmpty()) {
        emit(SubsearchRows.page(factory, outIds, columns, cells));
      }
    } finally {
      factory.release(page);
    }
  }

  /** The table of {@code fields}: the one held, else built in its place (reserved first). */
  private Map<String, List<Integer>> table(List<String> fields) {
    if (!fields.equals(tableFields)) {
      releaseTable();
      long bytes = ENTRY_BYTES * subsearch.rows();
      factory.reserve(bytes, "join (hash table)");
      tableBytes = bytes;
      table = new HashMap<>();
      for (int row = 0; row < subsearch.rows(); row++) {
        int r = row;
        String key = key(fields, field -> subsearch.values(r, field));
        if (key != null) {
          table.computeIfAbsent(key, k -> new ArrayList<>(1)).add(row);
        }
      }
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

  /** The join fields' first values' text, or null when one has none. */
  private static String key(
      List<String> fields, java.util.function.Function<String, List<Object>> values) {
    StringBuilder key = new StringBuilder();
    for (String field : fields) {
      List<Object> found = values.apply(field);
      if (found.isEmpty()) {
        return null;
      }
      key.append(SearchTextFormat.text(field, found.get(0))).append('\u0000');
    }
    return key.toString();
  }

  @Override
  public void close() {
    releaseTable();
    subsearch.close();
  }
}
