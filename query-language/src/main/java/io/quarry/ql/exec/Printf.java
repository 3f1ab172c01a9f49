package io.quarry.ql.exec;

import java.util.IllegalFormatException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code printf(format, args…)}: C's conversions as Splunk's eval takes them — {@code %d %i} (a
 * whole number, a decimal truncated), {@code %u}, {@code %f %F %e %E %g %G} (a decimal), {@code %x
 * %X %o} (a whole number), {@code %s} (text), {@code %c} (the character of a code point, or a
 * text's first), {@code %%}; flags {@code - + space 0 #} and {@code '} (digit grouping), a width
 * and a precision, each also {@code *} (taken from the arguments). An argument that does not fit
 * its conversion, or a missing one, makes the call null.
 */
final class Printf {
  private static final Pattern SPEC =
      Pattern.compile("%([-+ 0#']*)(\\*|\\d+)?(?:\\.(\\*|\\d+))?([diufFeEgGxXosc%])");

  private Printf() {}

  static Object format(List<Object> arguments) {
    String format = Values.toText(arguments.get(0));
    Matcher m = SPEC.matcher(format);
    StringBuilder out = new StringBuilder();
    int next = 1;
    int from = 0;
    while (m.find()) {
      out.append(format, from, m.start());
      from = m.end();
      char conversion = m.group(4).charAt(0);
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
      } catch (IllegalFormatException | ArithmeticException e) {
        return null;
      }
    }
    out.append(format.substring(from));
    return out.toString();
  }

  private static String convert(
      char conversion, String spec, String flags, String precision, Object argument) {
    double number = Values.toNumber(argument);
    return switch (conversion) {
      case 'd', 'i', 'u' -> {
        if (Double.isNaN(number)) {
          throw new ArithmeticException("not a number");
        }
        yield String.format(Locale.ROOT, spec + "d", (long) number);
      }
      case 'x', 'X', 'o' -> {
        if (Double.isNaN(number)) {
          throw new ArithmeticException("not a number");
        }
        yield String.format(Locale.ROOT, spec + conversion, (long) number);
      }
      case 'f', 'F', 'e', 'E', 'g', 'G' -> {
        if (Double.isNaN(number)) {
          throw new ArithmeticException("not a number");
        }
        yield String.format(Locale.ROOT, spec + (conversion == 'F' ? 'f' : conversion), number);
      }
      case 'c' -> {
        String text =
            argument instanceof String s && Double.isNaN(number)
                ? s.isEmpty() ? "" : s.substring(0, s.offsetByCodePoints(0, 1))
                : new String(Character.toChars((int) number));
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
        String width = spec.substring(1 + flags.length()).replaceAll("\\..*", "");
        yield String.format(Locale.ROOT, "%" + textFlags + width + "s", text);
      }
    };
  }
}
