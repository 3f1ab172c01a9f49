package io.quarry.server.search;

/**
 * The one estimate the scans that aggregate a field's values in their own tables ({@link
 * RexCounting}, {@link KeyValueStates}, {@link KeyStateTables}) make of whether the keys they met
 * repeat enough to pay: a table costs more than the page path where keys are met about once (a new
 * key hashed and copied into the table, copied to the hand-on's page and hashed again by the
 * aggregation; the page path hashes it once — session 40: ~25% more server CPU at 158k keys in 315k
 * events). Each caller names its own share: {@link RexCounting} seven eighths of a slice's first
 * matches, {@link KeyStateTables} fifteen sixteenths of a table's keyed events across slices,
 * {@link KeyValueStates} a full table's keys met fewer than four times each on average.
 */
final class KeyRepeats {
  private KeyRepeats() {}

  /**
   * Whether {@code keys} distinct keys among {@code rows} events are more than {@code distinct} of
   * every {@code outOf} events: keys that repeat too little for a table.
   */
  static boolean tooFew(long keys, long rows, int distinct, int outOf) {
    return keys * outOf > rows * distinct;
  }
}
