package io.quarry.server.sourcetype;

import java.util.function.IntConsumer;

/**
 * {@link EqualsPass} eight bytes at a time ({@link KeyValueBytes#equalsSigns}), and the vector
 * pass's tail.
 */
final class ScalarEqualsPass extends EqualsPass {
  private final String why;

  /** {@code why}: why not the vector pass, for the log. */
  ScalarEqualsPass(String why) {
    this.why = why;
  }

  @Override
  void run(byte[] bytes, int from, int end, byte before, IntConsumer found) {
    int i = from;
    for (; i + Long.BYTES <= end; i += Long.BYTES) {
      long marks = KeyValueBytes.equalsSigns(bytes, i);
      while (marks != 0) {
        int at = i + (Long.numberOfTrailingZeros(marks) >>> 3);
        // not a byte the word test marked above a real '=' (its borrow)
        if (bytes[at] == '=' && reported(bytes, from, end, before, at)) {
          found.accept(at);
        }
        marks &= marks - 1;
      }
    }
    bytes(bytes, from, end, i, end, before, found);
  }

  /**
   * {@link #run} one byte at a time over {@code bytes[at, stop)} of the region {@code [from, end)}.
   */
  static void bytes(
      byte[] bytes, int from, int end, int at, int stop, byte before, IntConsumer found) {
    for (int i = at; i < stop; i++) {
      if (bytes[i] == '=' && reported(bytes, from, end, before, i)) {
        found.accept(i);
      }
    }
  }

  @Override
  public String toString() {
    return "scalar (" + why + ")";
  }
}
