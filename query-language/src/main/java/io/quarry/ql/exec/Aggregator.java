package io.quarry.ql.exec;

/**
 * A transforming stage that splits into a map side and a reduce side: partials, each fed a disjoint
 * share of the rows (one per segment slice, in parallel), merge into the final operator, whose
 * {@link #finish} emits the answer one operator over all rows would. {@code stats} and {@code
 * timechart} are aggregators.
 */
public interface Aggregator extends RowSink {

  /** A new, empty partial of the same aggregation; it is merged, never finished. */
  Aggregator newPartial();

  /** Adds what a partial from {@link #newPartial} accumulated; the partial is emptied. */
  void merge(Aggregator partial);
}
