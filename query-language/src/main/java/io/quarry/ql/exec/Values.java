package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import java.math.BigDecimal;
import java.util.Comparator;
import java.util.Locale;

/** Helpers for comparing the loosely typed values of fields, the way Splunk does. */
public final class Values {
  private Values() {}

  /** The value as a double, or NaN when it is not a number. */
  public static double toNumber(Object value) {
    if (value instanceof Long l) {
      return l;
    }
    if (value instanceof Double d) {
      return d;
    }
    if (value instanceof String s) {
      return parseNumber(s);
    }
    return Double.NaN;
  }

  static double parseNumber(String text) {
    int length = text.length();
    if (length == 0 || length > 40 || !isDecimal(text, length)) {
      return Double.NaN;
    }
    return Double.parseDouble(text);
  }

  /**
   * Whether {@code text} is {@code [+-]digits[.digits][(e|E)[+-]digits]} with at least one mantissa
   * digit — checked by hand so that text which merely looks numeric (an IP address, a version)
   * never reaches {@code Double.parseDouble}'s exception (a sort over 5,000 IPs spent most of its
   * time building NumberFormatExceptions).
   */
  private static boolean isDecimal(String text, int length) {
    int i = 0;
    char c = text.charAt(0);
    if (c == '+' || c == '-') {
      i++;
    }
    int digits = 0;
    while (i < length && isDigit(text.charAt(i))) {
      i++;
      digits++;
    }
    if (i < length && text.charAt(i) == '.') {
      i++;
      while (i < length && isDigit(text.charAt(i))) {
        i++;
        digits++;
      }
    }
    if (digits == 0) {
      return false;
    }
    if (i < length && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
      i++;
      if (i < length && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
        i++;
      }
      int exponentDigits = 0;
      while (i < length && isDigit(text.charAt(i))) {
        i++;
        exponentDigits++;
      }
      if (exponentDigits == 0) {
        return false;
      }
    }
    return i == length;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /**
   * Whether a double is a whole number that a {@code long} holds exactly (finite, no fraction,
   * below 2^63 in magnitude). Such a double is that whole number for everything a user sees — its
   * text ({@link #toText}), its JSON, its type on the wire, {@code isdouble}, {@code tostring(x,
   * "commas")} — because whether a whole number is held as a long or a double depends on the page
   * it is in: a page's numeric column is one block, a double one as soon as some position holds a
   * fraction ({@code eval x=if(n==1, 4, 3.5)} holds n=1's 4 as 4.0 beside 3.5, as 4 alone).
   */
  public static boolean isWhole(double d) {
    return d == Math.rint(d) && Math.abs(d) < 0x1p63;
  }

  /**
   * A value as text. A whole double is written as an integer; another double in plain decimal
   * between 1e-7 and 1e21 (as JavaScript writes numbers), so epoch seconds with a fraction read
   * {@code 1767744000.123456}, not {@code 1.767744000123456E9}; the shortest digits that read back
   * as the same double either way. An infinity is {@code inf} or {@code -inf}, a NaN {@code nan},
   * as Splunk shows them (the Search Reference, eval, "Numeric calculations").
   */
  public static String toText(Object value) {
    if (value instanceof Double d) {
      if (!Double.isFinite(d)) {
        return Double.isNaN(d) ? "nan" : d > 0 ? "inf" : "-inf";
      }
      if (isWhole(d)) {
        return Long.toString(d.longValue());
      }
      String text = d.toString();
      double magnitude = Math.abs(d);
      if (text.indexOf('E') >= 0 && magnitude >= 1e-7 && magnitude < 1e21) {
        return new BigDecimal(text).toPlainString();
      }
      return text;
    }
    return String.valueOf(value);
  }

  /**
   * The number a text written by {@link #toText} spells, for a string block's value tagged as a
   * number ({@link BytesBlock#isNumber}): a {@code Long} for digits a long holds, else a {@code
   * Double} ({@code inf}, {@code -inf}, {@code nan} included) — so a whole number past 2^53 keeps
   * every digit, and a whole double below 2^63 reads as the whole number it is shown as.
   */
  public static Object numberOfText(String text) {
    switch (text) {
      case "inf" -> {
        return Double.POSITIVE_INFINITY;
      }
      case "-inf" -> {
        return Double.NEGATIVE_INFINITY;
      }
      case "nan" -> {
        return Double.NaN;
      }
      default -> {}
    }
    if (isLongDigits(text)) {
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException pastLong) {
        return Double.parseDouble(text);
      }
    }
    return Double.parseDouble(text);
  }

  /**
   * {@link #numberOfText(String)} of a value tagged as a double ({@link BytesBlock#isDouble}) too:
   * a {@code Double} whatever its text, so that a whole double ({@code pow(2,53)}) beside text
   * stays the double it is alone, not the long its digits spell.
   */
  public static Object numberOfText(String text, boolean isDouble) {
    if (!isDouble) {
      return numberOfText(text);
    }
    return switch (text) {
      case "inf" -> Double.POSITIVE_INFINITY;
      case "-inf" -> Double.NEGATIVE_INFINITY;
      case "nan" -> Double.NaN;
      default -> Double.parseDouble(text);
    };
  }

  private static boolean isLongDigits(String text) {
    int length = text.length();
    int i = length > 0 && text.charAt(0) == '-' ? 1 : 0;
    if (i == length || length - i > 19) {
      return false;
    }
    for (; i < length; i++) {
      if (!isDigit(text.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The value at a value index of a string block as the language reads it: a value tagged as a
   * number ({@link BytesBlock#isNumber}) the number ({@link #numberOfText}, a double when tagged as
   * one: {@link BytesBlock#isDouble}), any other its text.
   */
  public static Object stringValue(BytesBlock bytes, int valueIndex) {
    String text = bytes.getStringValue(valueIndex);
    return bytes.mayHaveNumbers() && bytes.isNumber(valueIndex)
        ? numberOfText(text, bytes.isDouble(valueIndex))
        : text;
  }

  /**
   * Every value at a position of a block as the language reads it ({@link Block#getValues}, a
   * string block's values tagged as numbers the numbers: {@link #stringValue}).
   */
  public static java.util.List<Object> valuesOf(Block block, int position) {
    if (!(block instanceof BytesBlock bytes) || !bytes.mayHaveNumbers()) {
      return block.getValues(position);
    }
    int count = bytes.getValueCount(position);
    if (count == 0) {
      return java.util.List.of();
    }
    int first = bytes.getFirstValueIndex(position);
    Object[] values = new Object[count];
    for (int i = 0; i < count; i++) {
      values[i] = stringValue(bytes, first + i);
    }
    return java.util.List.of(values);
  }

  /**
   * The value at a position of a block as the language reads it ({@link Block#getObject}, a string
   * block's value tagged as a number the number: {@link #stringValue}).
   */
  public static Object valueOf(Block block, int position) {
    if (block instanceof BytesBlock bytes && bytes.mayHaveNumbers() && !bytes.isNull(position)) {
      return stringValue(bytes, bytes.getFirstValueIndex(position));
    }
    return block.getObject(position);
  }

  /** Numbers before strings; numbers numerically, strings case-insensitively then exactly. */
  public static final Comparator<Object> NATURAL_ORDER =
      (a, b) -> Sortable.of(a).compareTo(Sortable.of(b));

  /**
   * A value prepared for {@link #NATURAL_ORDER}: its number parsed and its text folded once, for
   * sorting many values (200,000 groups sorted with the plain comparator spent most of the time
   * lower-casing the same strings again).
   */
  public record Sortable(double number, String folded, String text)
      implements Comparable<Sortable> {
    public static Sortable of(Object value) {
      double number = toNumber(value);
      if (!Double.isNaN(number)) {
        return new Sortable(number, null, null);
      }
      String text = toText(value);
      return new Sortable(Double.NaN, text.toLowerCase(Locale.ROOT), text);
    }

    private boolean isNumber() {
      return text == null;
    }

    @Override
    public int compareTo(Sortable other) {
      if (isNumber() && other.isNumber()) {
        return Double.compare(number, other.number);
      }
      if (isNumber() != other.isNumber()) {
        return isNumber() ? -1 : 1;
      }
      int folded = this.folded.compareTo(other.folded);
      return folded != 0 ? folded : text.compareTo(other.text);
    }
  }
}
