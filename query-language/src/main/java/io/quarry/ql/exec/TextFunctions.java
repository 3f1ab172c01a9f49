package io.quarry.ql.exec;

import static io.quarry.ql.exec.EvalValues.multivalue;
import static io.quarry.ql.exec.EvalValues.number;
import static io.quarry.ql.exec.EvalValues.text;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The text eval functions: {@code len lower upper substr split trim ltrim rtrim urldecode md5 sha1
 * sha256 sha512} and the conversions {@code tonumber tostring todouble toint tobool}, each bound to
 * its arguments after the first ({@link BoundFunction}: read once, applied per value), and the
 * {@code \\1}-group replacement text {@code replace} uses. Arguments are never null here (a null
 * argument makes the call null first).
 */
final class TextFunctions {
  private TextFunctions() {}

  /**
   * {@code function} with its arguments after the first fixed to {@code rest} (none null), or null
   * when it is not a text function: a separator, trim set, base or format read once.
   */
  static BoundFunction bind(String function, List<Object> rest) {
    return switch (function) {
      case "len" -> a -> (long) text(a).codePointCount(0, text(a).length());
      case "lower" -> a -> text(a).toLowerCase(java.util.Locale.ROOT);
      case "upper" -> a -> text(a).toUpperCase(java.util.Locale.ROOT);
      case "substr" -> substr(rest);
      case "split" -> split(text(rest.get(0)));
      case "trim", "ltrim", "rtrim" -> {
        String characters = rest.isEmpty() ? " \t" : text(rest.get(0));
        yield a -> trim(function, text(a), characters);
      }
      case "tonumber" -> {
        Object base = rest.isEmpty() ? null : number(rest.get(0));
        yield a -> tonumber(a, base);
      }
      case "tostring" -> {
        String format = rest.isEmpty() ? null : text(rest.get(0));
        yield a -> tostring(a, format);
      }
      case "todouble", "toint" -> {
        Object base = rest.isEmpty() ? null : number(rest.get(0));
        yield function.equals("toint") ? a -> toint(a, base) : a -> todouble(a, base);
      }
      case "tobool" -> TextFunctions::tobool;
      case "urldecode" -> TextFunctions::urldecode;
      case "md5" -> a -> digest("MD5", text(a));
      case "sha1" -> a -> digest("SHA-1", text(a));
      case "sha512" -> a -> digest("SHA-512", text(a));
      case "sha256" -> a -> digest("SHA-256", text(a));
      default -> null;
    };
  }

  private static Object urldecode(Object a) {
    try {
      return URLDecoder.decode(text(a), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return text(a);
    }
  }

  /** {@code split(x, separator)}: the text's parts between separators (its characters for ""). */
  private static BoundFunction split(String separator) {
    if (separator.isEmpty()) {
      return a -> {
        List<Object> parts = new ArrayList<>();
        text(a).codePoints().forEach(c -> parts.add(new String(Character.toChars(c))));
        return multivalue(parts);
      };
    }
    Pattern quoted = Pattern.compile(Pattern.quote(separator));
    return a -> multivalue(new ArrayList<>(List.of((Object[]) quoted.split(text(a), -1))));
  }

  /** Splunk's substr: 1-based start (negative counts from the end), optional length. */
  private static BoundFunction substr(List<Object> rest) {
    if (!(number(rest.get(0)) instanceof Number startNumber)) {
      return a -> null;
    }
    Number count = null;
    if (rest.size() > 1) {
      if (!(number(rest.get(1)) instanceof Number n)) {
        return a -> null;
      }
      count = n;
    }
    int start = startNumber.intValue();
    Long take = count == null ? null : count.longValue();
    return a -> {
      String text = text(a);
      int length = text.length();
      int from = start > 0 ? start - 1 : start < 0 ? Math.max(0, length + start) : 0;
      if (from >= length) {
        return "";
      }
      int to = take == null ? length : (int) Math.min(length, Math.max(from, (long) from + take));
      return text.substring(from, to);
    };
  }

  /** Splunk's replacement strings use {@code \1}; Java's use {@code $1}. */
  static String sedGroups(String replacement) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < replacement.length(); i++) {
      char c = replacement.charAt(i);
      if (c == '\\'
          && i + 1 < replacement.length()
          && Character.isDigit(replacement.charAt(i + 1))) {
        out.append('$').append(replacement.charAt(++i));
      } else if (c == '$' || c == '\\') {
        out.append('\\').append(c);
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static String trim(String function, String text, String characters) {
    int start = 0;
    int end = text.length();
    if (!function.equals("rtrim")) {
      while (start < end && characters.indexOf(text.charAt(start)) >= 0) {
        start++;
      }
    }
    if (!function.equals("ltrim")) {
      while (end > start && characters.indexOf(text.charAt(end - 1)) >= 0) {
        end--;
      }
    }
    return text.substring(start, end);
  }

  /** {@code tonumber(value, base)}: {@code base} a Number, or null for 10. */
  static Object tonumber(Object value, Object base) {
    if (base == null || ((Number) base).intValue() == 10) {
      return EvalValues.tonumber(value);
    }
    int radix = ((Number) base).intValue();
    String digits = text(value);
    if (EvalValues.hasSurroundingSpace(digits)) {
      return null; // as in base 10: trim() first
    }
    // as C's strtol, which Splunk's reads with: base 16 takes an optional 0x or 0X
    if (radix == 16 && digits.regionMatches(true, digits.startsWith("-") ? 1 : 0, "0x", 0, 2)) {
      digits = digits.startsWith("-") ? "-" + digits.substring(3) : digits.substring(2);
    }
    try {
      return Long.parseLong(digits, radix);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * Conversion functions, {@code todouble(value[, base])}: a number as a double, a text as {@code
   * tonumber(text, base)} gives it (null when it reads as none, a literal too), anything else null.
   */
  private static Object todouble(Object value, Object base) {
    Object number =
        value instanceof String ? tonumber(value, base) : value instanceof Boolean ? null : value;
    return number instanceof Number n ? (Object) n.doubleValue() : null;
  }

  /**
   * {@code toint(value[, base])}: a whole number as it is, a double rounded down ({@code floor}), a
   * text as {@code floor(tonumber(text, base))}; null for anything else or a result not finite.
   */
  private static Object toint(Object value, Object base) {
    Object number =
        value instanceof String ? tonumber(value, base) : value instanceof Boolean ? null : value;
    return number instanceof Number ? FLOOR.apply(number) : null;
  }

  /** {@code floor}, whose rule for a double past a long's range and one not finite toint shares. */
  private static final NumberFunction FLOOR = NumberFunctions.bind("floor", List.of());

  /**
   * {@code tobool(value)}: a Boolean as it is, the texts {@code true}/{@code True} and {@code
   * false}/{@code False}, a number (a text that reads as one too) true unless 0; null otherwise.
   */
  private static Object tobool(Object value) {
    if (value instanceof Boolean) {
      return value;
    }
    if (value instanceof String s) {
      switch (s) {
        case "true", "True" -> {
          return true;
        }
        case "false", "False" -> {
          return false;
        }
        default -> {}
      }
    }
    Object number = EvalValues.typed(value);
    return number instanceof Number n ? (Object) (n.doubleValue() != 0) : null;
  }

  private static Object tostring(Object value, String format) {
    if (format == null) {
      return value instanceof Boolean b ? (b ? "True" : "False") : text(value);
    }
    Object number = number(value);
    if (number == null) {
      return text(value);
    }
    if (number instanceof Double d && !Double.isFinite(d)) { // no digits: nan, inf, -inf
      return format.equals("binary") ? null : text(value);
    }
    return switch (format) {
      case "binary" -> { // whole numbers 0 to 2^53-1 only: tostring(9, "binary") is 1001
        double d = ((Number) number).doubleValue();
        yield d >= 0 && d < 0x1p53 && d == Math.rint(d) ? Long.toBinaryString((long) d) : null;
      }
      case "hex" -> // Splunk's digits are upper case: tostring(15, "hex") is 0xF
          "0x" + Long.toHexString(((Number) number).longValue()).toUpperCase(java.util.Locale.ROOT);
      case "commas" -> {
        double d = ((Number) number).doubleValue();
        // decimals only for a number that has some (the Search Reference: "if the number includes
        // decimals, rounds to nearest two decimal places"); a whole double is the whole number
        yield number instanceof Long || Values.isWhole(d)
            ? String.format(java.util.Locale.ROOT, "%,d", ((Number) number).longValue())
            : String.format(java.util.Locale.ROOT, "%,.2f", d);
      }
      case "duration" -> {
        // Splunk's duration form, [D+]HH:MM:SS, the one convert's dur2sec reads: a day or more
        // leads with its days (90061 is 1+01:01:01)
        long seconds = ((Number) number).longValue();
        long days = seconds / 86_400;
        yield (days > 0 ? days + "+" : "")
            + String.format(
                java.util.Locale.ROOT,
                "%02d:%02d:%02d",
                seconds / 3600 % 24,
                seconds / 60 % 60,
                seconds % 60);
      }
      default -> text(value);
    };
  }

  private static String digest(String algorithm, String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance(algorithm).digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(algorithm + " is part of every JDK", e);
    }
  }
}
