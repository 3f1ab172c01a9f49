package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.OutputLookupCommand;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code outputlookup}: passes rows on and keeps their fields; at the end writes them as a lookup
 * table (columns in order of first appearance, a multivalue joined with line breaks, a missing
 * field an empty cell, {@code _time} in epoch seconds) through the evaluator's lookup writer. The
 * rows it keeps count against the search's memory limit.
 */
public final class OutputLookupOperator implements RowSink {
  private final OutputLookupCommand command;
  private final LookupTable.Writer writer;
  private final RowSink downstream;
  private final Set<String> columns = new LinkedHashSet<>();
  private final List<Row> rows = new ArrayList<>();
  private final MemoryTracker memory;
  private boolean downstreamDone;

  public OutputLookupOperator(
      OutputLookupCommand command, LookupTable.Writer writer, RowSink downstream) {
    this(command, writer, downstream, MemoryTracker.unbounded("outputlookup"));
  }

  /** As above, the rows it keeps counted by {@code memory} (the search's limit applies). */
  public OutputLookupOperator(
      OutputLookupCommand command,
      LookupTable.Writer writer,
      RowSink downstream,
      MemoryTracker memory) {
    this.memory = requireNonNull(memory, "memory is null");
    this.command = requireNonNull(command, "command is null");
    this.writer = requireNonNull(writer, "writer is null");
    this.downstream = requireNonNull(downstream, "downstream is null");
  }

  @Override
  public boolean accept(Row row) {
    columns.addAll(row.fieldNames());
    memory.add(MemoryTracker.ROW_BYTES);
    rows.add(row);
    if (!downstreamDone && !downstream.accept(row)) {
      downstreamDone = true; // later rows still go into the table
    }
    return true;
  }

  @Override
  public void finish() {
    List<String> header = new ArrayList<>(columns);
    List<List<String>> cells = new ArrayList<>(rows.size());
    for (Row row : rows) {
      List<String> line = new ArrayList<>(header.size());
      for (String column : header) {
        List<Object> values = row.values(column);
        List<String> texts = new ArrayList<>(values.size());
        boolean time = TimeField.is(column); // written as epoch seconds, as Splunk writes it
        values.forEach(v -> texts.add(time ? TimeField.secondsText(v) : Values.toText(v)));
        line.add(String.join("\n", texts));
      }
      cells.add(line);
    }
    writer.write(command.table(), new LookupTable(header, cells));
    rows.clear();
    memory.release();
    downstream.finish();
  }
}
