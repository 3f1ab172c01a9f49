package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.FieldSummaryCommand;
import java.util.Map;

/**
 * {@code fieldsummary} on rows: every field any input row has (search-time extracted fields
 * included, see {@link Row#discoverableFieldNames}) into {@link FieldSummaries} (the summaries and
 * their result rows, shared with the page stage {@link FieldSummaryStage}), one row per field once
 * the input ends, in order of first appearance.
 */
public final class FieldSummaryOperator implements RowSink {
  private final RowSink downstream;
  private final FieldSummaries fields;

  public FieldSummaryOperator(FieldSummaryCommand command, RowSink downstream) {
    this(command, downstream, MemoryTracker.unbounded("fieldsummary"));
  }

  /** As above, its fields and tracked values counted by {@code memory} (the search's limit). */
  public FieldSummaryOperator(
      FieldSummaryCommand command, RowSink downstream, MemoryTracker memory) {
    this.fields = new FieldSummaries(command.maxValues(), memory);
    this.downstream = requireNonNull(downstream, "downstream is null");
  }

  @Override
  public boolean accept(Row row) {
    for (String name : row.discoverableFieldNames()) {
      fields.add(name, row.values(name));
    }
    return true;
  }

  @Override
  public void finish() {
    for (Map<String, Object> result : fields.results()) {
      if (!downstream.accept(new MapRow(result))) {
        break;
      }
    }
    downstream.finish();
  }
}
