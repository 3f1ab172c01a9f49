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

  /**
   * Whether a partial may go on taking rows after it was merged (the merge emptied it): then one
   * partial serves many slices in turn, merged now and then (for previews) and at the end, instead
   * of one partial per slice merged when the slice ends.
   */
  default boolean partialsOutliveMerges() {
    return false;
  }

  /**
   * Emits what {@link #finish} would emit now into {@code target} and finishes it, keeping this
   * aggregator's state (a live preview of a running search). Not thread-safe against {@link
   * #merge}: callers lock.
   *
   * @return false when this aggregator has no preview (nothing was emitted)
   */
  default boolean snapshot(RowSink target) {
    return false;
  }

  /** The downstream of a partial: partials are merged, never finished, and emit nothing. */
  RowSink PARTIAL =
      new RowSink() {
        @Override
        public boolean accept(Row row) {
          throw new IllegalStateException("a partial aggregation emits nothing");
        }

        @Override
        public void finish() {
          throw new IllegalStateException("a partial aggregation is merged, not finished");
        }
      };
}
