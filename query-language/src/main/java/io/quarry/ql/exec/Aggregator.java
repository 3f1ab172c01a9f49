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

  /**
   * The one field this aggregation groups by when counting that field's values is all it does
   * ({@code stats count by f}, {@code top f}), so a scan may count the values of rows instead of
   * producing the rows; null otherwise.
   */
  default String countsOnlyByField() {
    return null;
  }

  /**
   * Adds what {@link #accept} would have added for rows that were counted instead ({@link
   * #countsOnlyByField}): {@code counts} rows per distinct value of the field, out of {@code rows}
   * rows that have it.
   */
  default void addValueCounts(java.util.Map<String, Long> counts, long rows) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " does not take counts");
  }

  /**
   * Whether counting rows is all this aggregation does ({@code stats count} without a by-clause),
   * so a scan whose every candidate matches may count documents instead of producing rows.
   */
  default boolean countsOnlyRows() {
    return false;
  }

  /** Adds what {@link #accept} would have added for {@code rows} rows that were counted instead. */
  default void addRowCount(long rows) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " does not take counts");
  }

  /**
   * The one field a time-bucketed count groups by when counting per time bucket and value is all it
   * does ({@code timechart span=… count by f}), so a scan may count {@code _time} buckets and
   * values of documents instead of producing rows; null otherwise.
   */
  default String countsByTimeAndField() {
    return null;
  }

  /** The start of the time bucket {@code micros} falls in (see {@link #countsByTimeAndField}). */
  default long timeBucket(long micros) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " has no time buckets");
  }

  /** The start of the bucket after the one starting at {@code start}. */
  default long nextTimeBucket(long start) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " has no time buckets");
  }

  /**
   * Adds what {@link #accept} would have added for rows that were counted instead ({@link
   * #countsByTimeAndField}): {@code counts} rows per value of the field in the bucket starting at
   * {@code bucket}.
   */
  default void addTimeValueCounts(long bucket, java.util.Map<String, Long> counts) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " has no time buckets");
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
