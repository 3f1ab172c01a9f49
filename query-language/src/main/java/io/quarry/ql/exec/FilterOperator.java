package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import java.util.function.Predicate;

/** Passes on the rows a predicate accepts ({@code search} after the first command). */
public final class FilterOperator implements RowSink {
  private final Predicate<Row> predicate;
  private final RowSink downstream;

  public FilterOperator(Predicate<Row> predicate, RowSink downstream) {
    this.predicate = requireNonNull(predicate, "predicate is null");
    this.downstream = requireNonNull(downstream, "downstream is null");
  }

  @Override
  public boolean accept(Row row) {
    return !predicate.test(row) || downstream.accept(row);
  }

  @Override
  public void finish() {
    downstream.finish();
  }
}
