package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

/** Passes on the first {@code limit} rows, then asks the producer to stop. */
public final class HeadOperator implements RowSink {
  private final long limit;
  private final RowSink downstream;
  private long seen;

  public HeadOperator(long limit, RowSink downstream) {
    this.limit = limit;
    this.downstream = requireNonNull(downstream, "downstream is null");
  }

  @Override
  public boolean accept(Row row) {
    if (seen >= limit) {
      return false;
    }
    seen++;
    boolean more = downstream.accept(row);
    return more && seen < limit;
  }

  @Override
  public void finish() {
    downstream.finish();
  }
}
