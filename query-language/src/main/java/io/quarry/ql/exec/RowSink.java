package io.quarry.ql.exec;

/** A push-based stage of the row pipeline. */
public interface RowSink {

  /**
   * Takes one row.
   *
   * @return false once the stage wants no more rows (a satisfied {@code head}); the producer should
   *     stop scanning
   */
  boolean accept(Row row);

  /** No more rows will come; flush what is held downstream. */
  void finish();
}
