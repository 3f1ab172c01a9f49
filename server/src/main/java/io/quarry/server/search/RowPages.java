package io.quarry.server.search;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.exec.PageCollector;
import io.quarry.ql.exec.Row;
import io.quarry.ql.exec.RowSink;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Where the row operators of a batch search's map side meet the page engine: each row's values of
 * the fields the page operators need (and only those) are read at once — an event extracts nothing
 * else — and every {@code pageSize} rows become a typed page for {@code consumer}. The remaining
 * rows go at {@link #finish}, the end of a segment slice. Goes when the scan produces pages itself
 * (docs/design/page-engine.md, step 3).
 */
final class RowPages implements RowSink {
  private final List<String> fields;
  private final int pageSize;
  private final Consumer<Page> consumer;
  private final List<List<List<Object>>> columns;
  private int rows;

  RowPages(List<String> fields, int pageSize, Consumer<Page> consumer) {
    this.fields = List.copyOf(fields);
    this.pageSize = pageSize;
    this.consumer = consumer;
    this.columns = new ArrayList<>(fields.size());
    for (int i = 0; i < fields.size(); i++) {
      columns.add(new ArrayList<>(pageSize));
    }
  }

  @Override
  public boolean accept(Row row) {
    for (int i = 0; i < fields.size(); i++) {
      columns.get(i).add(row.values(fields.get(i)));
    }
    if (++rows == pageSize) {
      flush();
    }
    return true;
  }

  @Override
  public void finish() {
    flush();
  }

  private void flush() {
    if (rows == 0) {
      return;
    }
    Page page = PageCollector.toPage(fields, columns, rows);
    for (List<List<Object>> column : columns) {
      column.clear();
    }
    rows = 0;
    consumer.accept(page);
  }
}
