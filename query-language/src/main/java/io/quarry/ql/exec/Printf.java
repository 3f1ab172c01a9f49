package io.quarry.ql.exec;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code printf(format, args…)}: C's conversions as Splunk's eval takes them — {@code %d %i} (a
 * whole number, a decimal truncated), {@code %u}, {@code %f %F %e %E %g %G} (a decimal), {@code %x
 * %X %o} (a whole number), {@code %a %A} (a decimal in hexadecimal, C's form: {@code 0x1.8p+1}),
 * {@code %s} (text; alias {@code %z}), {@code %c} (the character of a code point, or a text's
 * first), {@code %p} (Splunk's alias of {@code %X}), {@code %%}; flags {@code - + space 0 #} and
 * {@code '} (digit grouping), a width and a precision, each also {@code *} (taken from the
 * arguments). {@code %f %e %g} round the double's exact value half to even (and {@code %g} picks
 * its form), as C does (the Search Reference: "similar to the C sprintf() function"); an infinity
 * or a NaN prints as C's {@code inf}/{@code nan} (a NaN with its sign bit set {@code -nan}, as
 * glibc). An argument that does not fit its conversion, or a missing one, makes the call null.
 */
final class Printf {
  private static final Pattern SPEC =
      Pattern.compile("%([-+ 0#']*)(\\*|\\d+)?(?:\\.(\\*|\\d+))?([diufFeEgGaAxXoscpz%])");

  private Printf() {}

  /**
   * Splunk's aliases (Conversion functions, printf): {@code %z} is {@code %s}, {@code %p} is {@code
   * %X} ({@code printf("%x,%X,%p", 10, 10, 10)} is {@code a,A,A}).
   */
  private static char alias(char conversion) {
    return switch (conversion) {
      case 'z' -> 's';
      case 'p' -> 'X';
      default -> conversion;
    };
  }

  static Object format(List<Object> arguments) {
    String format = Values.toText(arguments.get(0));
    Matcher m = SPEC.matcher(format);
    StringBuilder out = new StringBuilder();
    int next = 1;
    int from = 0;
    while (m.find()) {
      out.append(format, from, m.start());
      from = m.end();
      char conversion = alias(m.group(4).charAt(0));
      if (conversion == '%') {
        out.append('%');
        continue;
      }
      String flags = m.group(1).replace('\'', ',');
      String width = m.group(2);
      String precision = m.group(3);
      if ("*".equals(width)) {
        if (next >= arguments.size()) {
          return null;
        }
        width = String.valueOf((long) Values.toNumber(arguments.get(next++)));
      }
      if ("*".equals(precision)) {
        if (next >= arguments.size()) {
          return null;
        }
        precision = String.valueOf((long) Values.toNumber(arguments.get(next++)));
      }
      if (next >= arguments.size()) {
        return null;
      }
      Object argument = arguments.get(next++);
      String spec =
          "%"
              + flags
              + (width == null ? "" : width.replace("-", ""))
              + (precision == null || "dixXouc".indexOf(conversion) >= 0 ? "" : "." + precision);
      try {
        out.append(convert(conversion, spec, flags, precision, argument));
      } catch (IllegalArgumentException | ArithmeticException e) { // a format's, a code point's
        return null;
      }
    }
    out.append(format.substring(from));
    return out.toString();
  }

  /**
   * A whole-number conversion's argument truncated; a value that is no finite number (text that is
   * not a number, an infinity, a NaN) fits none and makes the answer null.
   */
  private static long whole(double number) {
    if (!Double.isFinite(number)) {
      throw new ArithmeticException("not a finite number");
    }
    return (long) number;
  }

  private static String convert(
      char conversion, String spec, String flags, String precision, Object argument) {
    double number = Values.toNumber(argument);
    return switch (conversion) {
      case 'd', 'i', 'u' -> String.format(Locale.ROOT, spec + "d", whole(number));
      case 'x', 'X', 'o' -> String.format(Locale.ROOT, spec + conversion, whole(number));
      case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A' -> {
        boolean upper = Character.isUpperCase(conversion);
        if (Double.isNaN(number) && !(argument instanceof Double)) {
          throw new ArithmeticException("not a number");
        }
        if (!Double.isFinite(number)) {
          yield nonFinite(number, flags, width(spec, flags), upper);
        }
        if (conversion == 'a' || conversion == 'A') {
          yield hexadecimal(number, flags, spec, precision, upper);
        }
        if (conversion == 'g' || conversion == 'G') {
          yield general(number, flags, spec, precision, conversion == 'G');
        }
        Object value = roundedAsC(conversion, precision, number);
        yield String.format(Locale.ROOT, spec + (conversion == 'F' ? 'f' : conversion), value);
      }
      case 'c' -> {
        String text =
            argument instanceof String s && Double.isNaN(number)
                ? s.isEmpty() ? "" : s.substring(0, s.offsetByCodePoints(0, 1))
                : new String(Character.toChars((int) whole(number)));
        yield String.format(Locale.ROOT, spec.replace("#", "").replace("0", "") + "s", text);
      }
      default -> {
        String text = Values.toText(argument);
        if (precision != null && !"*".equals(precision)) {
          int limit = Integer.parseInt(precision);
          if (text.length() > limit) {
            text = text.substring(0, limit);
          }
        }
        String textFlags = flags.contains("-") ? "-" : "";
        yield String.format(Locale.ROOT, "%" + textFlags + width(spec, flags) + "s", text);
      }
    };
  }

  /**
   * {@code %f}/{@code %e}'s number rounded as C's printf rounds it: the double's exact binary value
   * to the precision (6 by default), a tie to the even digit — {@code %.2f} of 0.125 is 0.12 and of
   * 2.675 (2.67499999… in binary) 2.67, where Java's formatter rounds the shortest decimal text
   * half up (0.13, 2.68). Formatted as a {@code BigDecimal} already at the precision, nothing is
   * rounded again; zero, rounded or not, stays a double so its sign is written ({@code -0.00}).
   */
  private static Object roundedAsC(char conversion, String precision, double number) {
    if (number == 0) {
      return number;
    }
    int digits = precision == null ? 6 : Integer.parseInt(precision);
    java.math.BigDecimal exact = new java.math.BigDecimal(number);
    java.math.BigDecimal rounded =
        conversion == 'f' || conversion == 'F'
            ? exact.setScale(digits, java.math.RoundingMode.HALF_EVEN)
            : exact.round(new java.math.MathContext(digits + 1, java.math.RoundingMode.HALF_EVEN));
    return rounded.signum() == 0 ? (Object) Math.copySign(0.0, number) : rounded;
  }

  /**
   * {@code %g} as C writes it: P significant digits (the precision, 6 by default, 0 taken as 1) of
   * the double's exact value rounded half to even; X the decimal exponent of that rounded value —
   * {@code %e} with precision P−1 if X < −4 or X ≥ P, else {@code %f} with precision P−1−X —, then
   * the fraction's trailing zeros and a trailing point dropped unless {@code #}; then padded.
   * Java's own {@code %g} keeps the zeros, refuses {@code #} and rounds the shortest decimal text
   * half up, so only its {@code %e} and {@code %f} forms are used, on the already rounded value.
   */
  private static String general(
      double number, String flags, String spec, String precision, boolean upper) {
    int digits = precision == null ? 6 : Math.max(1, Integer.parseInt(precision));
    String sign = flags.replaceAll("[^+ ]", "");
    String point = flags.contains("#") ? "#" : "";
    Object value = number;
    int exponent = 0;
    if (number != 0) {
      java.math.BigDecimal rounded =
          new java.math.BigDecimal(number)
              .round(new java.math.MathContext(digits, java.math.RoundingMode.HALF_EVEN));
      exponent = rounded.precision() - rounded.scale() - 1;
      value = rounded;
    }
    String text =
        exponent < -4 || exponent >= digits
            ? String.format(Locale.ROOT, "%" + sign + point + "." + (digits - 1) + "e", value)
            : String.format(
                Locale.ROOT,
                "%"
                    + sign
                    + point
                    + flags.replaceAll("[^,]", "")
                    + "."
                    + (digits - 1 - exponent)
                    + "f",
                value);
    if (point.isEmpty() && text.contains(".")) {
      int end = text.indexOf('e') < 0 ? text.length() : text.indexOf('e');
      String fixed = text.substring(0, end).replaceFirst("\\.?0*$", "");
      text = fixed + text.substring(end);
    }
    int signs = text.startsWith("-") || !sign.isEmpty() ? 1 : 0;
    String padded = padded(text, flags, width(spec, flags), signs);
    return upper ? padded.toUpperCase(Locale.ROOT) : padded;
  }

  /**
   * {@code text} padded to {@code width} (none if empty): spaces on the right with the {@code -}
   * flag, zeros at {@code zerosAt} with {@code 0} (a negative {@code zerosAt}: never zeros), else
   * spaces on the left.
   */
  private static String padded(String text, String flags, String width, int zerosAt) {
    int pad = width.isEmpty() ? 0 : Integer.parseInt(width) - text.length();
    if (pad <= 0) {
      return text;
    }
    if (flags.contains("-")) {
      return text + " ".repeat(pad);
    }
    if (flags.contains("0") && zerosAt >= 0) {
      return text.substring(0, zerosAt) + "0".repeat(pad) + text.substring(zerosAt);
    }
    return " ".repeat(pad) + text;
  }

  /**
   * {@code %a} as C writes it: {@code 0x}, the leading digit (1, or 0 for zero and subnormals), the
   * fraction's hexadecimal digits — all but trailing zeros without a precision, else rounded half
   * to even to that many, a carry going into the leading digit ({@code %.0a} of 1.5 is {@code
   * 0x2p+0}) — and a signed binary exponent; a point only before digits or with {@code #}. Then
   * padded to the width: zeros after the sign and {@code 0x} with the {@code 0} flag, spaces on the
   * right with {@code -}, else on the left.
   */
  private static String hexadecimal(
      double number, String flags, String spec, String precision, boolean upper) {
    String sign =
        Double.doubleToRawLongBits(number) < 0
            ? "-"
            : flags.contains("+") ? "+" : flags.contains(" ") ? " " : "";
    String text = sign + hexadecimalDigits(number, precision, flags.contains("#"));
    text = padded(text, flags, width(spec, flags), text.indexOf('x') + 1);
    return upper ? text.toUpperCase(Locale.ROOT) : text;
  }

  /**
   * An infinity or a NaN under a floating-point conversion as C writes it: {@code inf} or {@code
   * nan} ({@code INF}/{@code NAN} for {@code %F %E %G %A}), signed as a number is ({@code -inf},
   * {@code +inf} with {@code +}, a space with the space flag), padded with spaces only — the {@code
   * 0} flag and the precision do not apply (glibc; Java writes {@code Infinity}/{@code NaN}). A NaN
   * is one only as a number: text that is not a number still makes the call null. A NaN whose sign
   * bit is set prints {@code -nan}, as glibc prints it: Java's {@link Double#NaN} has the bit
   * clear, but a NaN that arithmetic makes carries the processor's own (x86's default NaN has it
   * set), and one reaches printf from a stats result such as {@code avg} of {@code 1e999} and
   * {@code -1e999} (eval's own arithmetic and math functions answer null instead of a NaN) — the
   * same {@code -nan} that C's printf writes for that average on that machine.
   */
  private static String nonFinite(double number, String flags, String width, boolean upper) {
    boolean negative = Double.doubleToRawLongBits(number) < 0;
    String sign = negative ? "-" : flags.contains("+") ? "+" : flags.contains(" ") ? " " : "";
    String text = sign + (Double.isNaN(number) ? "nan" : "inf");
    text = padded(text, flags, width, -1);
    return upper ? text.toUpperCase(Locale.ROOT) : text;
  }

  /** {@code %a} of a finite {@code number}'s magnitude, from {@code 0x} on. */
  private static String hexadecimalDigits(double number, String precision, boolean point) {
    long bits = Double.doubleToRawLongBits(number);
    int biased = (int) (bits >>> 52) & 0x7ff;
    long fraction = bits & ((1L << 52) - 1);
    long lead = biased == 0 ? 0 : 1;
    int exponent = biased == 0 ? (fraction == 0 ? 0 : -1022) : biased - 1023;
    String digits = String.format(Locale.ROOT, "%013x", fraction);
    if (precision == null) {
      digits = digits.replaceFirst("0+$", "");
    } else if (Integer.parseInt(precision) >= 13) {
      digits = digits + "0".repeat(Integer.parseInt(precision) - 13);
    } else {
      int kept = Integer.parseInt(precision);
      int shift = 4 * (13 - kept);
      long rounded = fraction >>> shift;
      long rest = fraction & ((1L << shift) - 1);
      long half = 1L << (shift - 1);
      long last = kept == 0 ? lead : rounded; // the digit a tie rounds to even
      if (rest > half || rest == half && (last & 1) == 1) {
        rounded++;
      }
      if (rounded >>> (4 * kept) != 0) {
        lead++;
        rounded = 0;
      }
      digits = kept == 0 ? "" : String.format(Locale.ROOT, "%0" + kept + "x", rounded);
    }
    return "0x"
        + lead
        + (digits.isEmpty() && !point ? "" : ".")
        + digits
        + "p"
        + (exponent < 0 ? "" : "+")
        + exponent;
  }

  /** The width a conversion's spec names, or "" for none. */
  private static String width(String spec, String flags) {
    return spec.substring(1 + flags.length()).replaceAll("\\..*", "");
  }
}
