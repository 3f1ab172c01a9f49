package io.quarry.ql.exec;

import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.SubsearchResult;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A subsearch's result pages as an operator holds them: reserved on the outer search's memory
 * account while held (released on {@link #close}, or handed on with the page), read by row index.
 */
final class SubsearchRows implements AutoCloseable {
  private final List<Page> pages;
  private final int[] firstRow;
  private final List<String> columns;
  private final BlockFactory factory;
  private long reserved;

  SubsearchRows(SubsearchResult result, OperatorContext context, String command, long extra) {
    this.pages = result.pages();
    this.factory = context.blockFactory();
    this.firstRow = new int[pages.size() + 1];
    Set<String> names = new LinkedHashSet<>();
    for (int i = 0; i < pages.size(); i++) {
      firstRow[i + 1] = firstRow[i] + pages.get(i).positionCount();
      for (Schema.Column column : pages.get(i).schema().columns()) {
        names.add(column.name());
      }
    }
    names.remove(PluginOperators.ROW_COLUMN);
    this.columns = List.copyOf(names);
    long bytes = result.bytes() + extra;
    factory.reserve(bytes, command + " (subsearch rows)");
    this.reserved = bytes;
  }

  int rows() {
    return firstRow[pages.size()];
  }

  /** Every column of the result, in first-seen order. */
  List<String> columns() {
    return columns;
  }

  List<Page> pages() {
    return pages;
  }

  /** The values of {@code column} in row {@code row} (none when absent). */
  List<Object> values(int row, String column) {
    int page = pageOf(row);
    Page p = pages.get(page);
    int index = p.schema().indexOf(column);
    return index < 0 ? List.of() : nonNull(Values.valuesOf(p.block(index), row - firstRow[page]));
  }

  /** The pages are handed on (their new holder releases them): no longer counted here. */
  void handedOn(Page page) {
    reserved -= ramBytes(page);
  }

  private int pageOf(int row) {
    int low = 0;
    int high = pages.size() - 1;
    while (low < high) {
      int mid = (low + high + 1) >>> 1;
      if (firstRow[mid] <= row) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return low;
  }

  @Override
  public void close() {
    if (reserved > 0) {
      factory.release(reserved);
    }
    reserved = 0;
  }

  static long ramBytes(Page page) {
    long bytes = 0;
    for (Block block : page.blocks()) {
      bytes += block.ramBytesUsed();
    }
    return bytes;
  }

  static List<Object> nonNull(List<Object> values) {
    boolean anyNull = false;
    for (Object value : values) {
      anyNull |= value == null;
    }
    if (!anyNull) {
      return values;
    }
    List<Object> kept = new ArrayList<>(values);
    kept.removeIf(java.util.Objects::isNull);
    return kept;
  }

  /** The values of a column of an input page at a position (none when absent). */
  static List<Object> values(Page page, String column, int position) {
    int index = page.schema().indexOf(column);
    return index < 0 ? List.of() : nonNull(Values.valuesOf(page.block(index), position));
  }

  /**
   * An output page: the row ids and a typed column per name, reserved on {@code factory}. A row's
   * cell list of a column may be empty (no value).
   */
  static Page page(
      BlockFactory factory, List<Long> rowIds, List<String> names, List<List<List<Object>>> cells) {
    List<Schema.Column> schema = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    if (rowIds != null) {
      LongBlock.Builder ids = LongBlock.builder(DataType.LONG, rowIds.size());
      rowIds.forEach(ids::append);
      schema.add(new Schema.Column(PluginOperators.ROW_COLUMN, DataType.LONG));
      blocks.add(ids.build());
    }
    for (int c = 0; c < names.size(); c++) {
      Block block = PageBuilder.column(names.get(c), cells.get(c));
      schema.add(new Schema.Column(names.get(c), block.dataType()));
      blocks.add(block);
    }
    int positions = blocks.isEmpty() ? 0 : blocks.get(0).positionCount();
    Page page = new Page(new Schema(schema), blocks, positions);
    for (Block block : blocks) {
      factory.reserve(block);
    }
    return page;
  }
}
