package io.quarry.server.rest;

import io.quarry.ql.exec.Values;

/**
 * A number's text as Splunk's JSON shows it ({@link Values#toText}: a whole number without a
 * fraction, otherwise Java's shortest decimal that reads back to the same double, plain rather than
 * in E notation between 1e-7 and 1e21) written into a reusable buffer instead of a new {@code
 * String} per value: the export endpoint writes hundreds of thousands of them for a wide {@code
 * mstats}. The text is the same, character for character, as {@code Values.toText} gives.
 */
final class SplunkNumberText {
  private final StringBuilder digits = new StringBuilder(32);
  private char[] text = new char[34];
  private int length;

  /**
   * Makes {@code value}'s text, wrapped in double quotes (a JSON string that needs no escaping),
   * readable through {@link #chars} and {@link #length}.
   */
  void quoted(double value) {
    if (value == Math.rint(value) && Math.abs(value) < 0x1p63) {
      long whole = (long) value;
      length = 0;
      text[length++] = '"';
      if (whole < 0) {
        text[length++] = '-';
        whole = -whole; // |value| < 2^63: no overflow
      }
      int end = length + digitCount(whole);
      for (int at = end - 1; at >= length; at--) {
        text[at] = (char) ('0' + whole % 10);
        whole /= 10;
      }
      length = end;
      text[length++] = '"';
      return;
    }
    digits.setLength(0);
    digits.append(value); // the digits of Double.toString
    if (needsPlain(value)) {
      String plain = Values.toText(value);
      digits.setLength(0);
      digits.append(plain);
    }
    int size = digits.length();
    if (text.length < size + 2) {
      text = new char[size + 2];
    }
    text[0] = '"';
    digits.getChars(0, size, text, 1);
    text[size + 1] = '"';
    length = size + 2;
  }

  /** The text {@link #quoted} made, from index 0. */
  char[] chars() {
    return text;
  }

  int length() {
    return length;
  }

  /**
   * Values.toText's rule: E notation between 1e-7 and 1e21 is written out plain. {@code
   * Double.toString} writes E notation exactly when the magnitude is below 1e-3 or at least 1e7, so
   * the magnitude alone says whether its text holds an E (no scan of the text).
   */
  private static boolean needsPlain(double value) {
    double magnitude = Math.abs(value);
    return magnitude >= 1e-7 && magnitude < 1e21 && (magnitude < 1e-3 || magnitude >= 1e7);
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
