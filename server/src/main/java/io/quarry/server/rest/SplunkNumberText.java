package io.quarry.server.rest;

import io.quarry.ql.exec.Values;

/**
 * A number's text as Splunk's JSON shows it ({@link Values#toText}: a whole number without a
 * fraction, otherwise Java's shortest decimal that reads back to the same double, plain rather than
 * in E notation between 1e-7 and 1e21) written as ASCII bytes straight into the caller's array
 * instead of a new {@code String} per value: the export endpoint writes hundreds of thousands of
 * them for a wide {@code mstats}. The text is the same, character for character, as {@code
 * Values.toText} gives.
 */
final class SplunkNumberText {
  /**
   * The most bytes {@link #quoted} writes: the quotes and at most 26 characters (a sign, {@code 0.}
   * and six zeros before 17 digits, the longest plain text below 1e-3; E notation is at most 24).
   */
  static final int MAX_BYTES = 40;

  private final StringBuilder digits = new StringBuilder(32);

  /**
   * Writes {@code value}'s text, wrapped in double quotes (a JSON string that needs no escaping),
   * into {@code out} from {@code at}, where {@link #MAX_BYTES} bytes must be free.
   *
   * @return the index after the closing quote
   */
  int quoted(double value, byte[] out, int at) {
    out[at++] = '"';
    if (value == Math.rint(value) && Math.abs(value) < 0x1p63) {
      long whole = (long) value;
      if (whole < 0) {
        out[at++] = '-';
        whole = -whole; // |value| < 2^63: no overflow
      }
      int end = at + digitCount(whole);
      for (int i = end - 1; i >= at; i--) {
        out[i] = (byte) ('0' + whole % 10);
        whole /= 10;
      }
      out[end] = '"';
      return end + 1;
    }
    digits.setLength(0);
    digits.append(value); // the digits of Double.toString
    if (needsPlain(value)) {
      String plain = Values.toText(value);
      digits.setLength(0);
      digits.append(plain);
    }
    int size = digits.length();
    for (int i = 0; i < size; i++) {
      out[at++] = (byte) digits.charAt(i); // digits, sign, point, E: ASCII
    }
    out[at++] = '"';
    return at;
  }

  /**
   * Values.toText's rule: E notation between 1e-7 and 1e21 is written out plain. {@code
   * Double.toString} writes E notation exactly when the magnitude is below 1e-3 or at least 1e7, so
   * the magnitude alone says whether its text holds an E (no scan of the text).
   */
  private static boolean needsPlain(double value) {
    double magnitude = Math.abs(value);
    return !Double.isFinite(value) // inf, -inf, nan
        || magnitude >= 1e-7 && magnitude < 1e21 && (magnitude < 1e-3 || magnitude >= 1e7);
  }

  private static int digitCount(long positive) {
    int count = 1;
    while (positive >= 10) {
      positive /= 10;
      count++;
    }
    return count;
  }
}
