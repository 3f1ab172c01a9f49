package io.quarry.codecs.store;

import java.io.IOException;

/**
 * An undecoded block's times, read when first asked from its payload's first bytes alone ({@link
 * PrefixTimes}, session 33) rather than by decoding the payload: for a scan handing the block to a
 * visitor as a run, whose columns decoded the payload before asking a time if any of them reads the
 * texts or a field held there ({@code EventPages}). The times read are checked against the block's
 * times by its doc values.
 */
final class BlockPrefixTimes {
  private final PrefixTimes reader;
  private final long oldest; // the block's times by its doc values
  private final long newest;
  private long[] times; // read by reader, null until first asked

  BlockPrefixTimes(PrefixTimes reader, long oldest, long newest) {
    this.reader = reader;
    this.oldest = oldest;
    this.newest = newest;
  }

  /**
   * The times of block document {@code doc}'s {@code count} events, read once; null when they do
   * not read by prefix (the caller decodes the payload instead).
   */
  long[] read(int doc, int count) throws IOException {
    if (times == null) {
      times = reader.read(doc, count, oldest, newest);
    }
    return times;
  }
}
