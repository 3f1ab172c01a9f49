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
  void run(byte[] bytes, int from, int end, IntConsumer found) {
    int i = from;
    for (; i + Long.BYTES <= end; i += Long.BYTES) {
      long marks = KeyValueBytes.equalsSigns(bytes, i);
      while (marks != 0) {
        int at = i + (Long.numberOfTrailingZeros(marks) >>> 3);
        if (bytes[at] == '=') { // not a byte the word test marked above a real '=' (its borrow)
          found.accept(at);
        }
        marks &= marks - 1;
      }
    }
    tail(bytes, i, end, found);
  }

  /** One byte at a time: the last bytes of a region. */
  static void tail(byte[] bytes, int from, int end, IntConsumer found) {
    for (int i = from; i < end; i++) {
      if (bytes[i] == '=') {
        found.accept(i);
      }
    }
  }

  @Override
  public String toString() {
    return "scalar (" + why + ")";
  }
}
