package io.quarry.ql.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * How eval values coerce and compare, as Splunk's eval does: a value is a number when it is a
 * {@code Long} or {@code Double} or text that reads as one (whole texts without a point or an
 * exponent are {@code Long}); arithmetic stays in {@code Long} until it would overflow or divide
 * unevenly, a double result is IEEE's (an overflow is an infinity, {@code inf - inf} a NaN) but a
 * division by zero is null; comparisons are numeric when both sides are numbers, else
 * case-sensitive text; a multivalue compares true when any of its values does, and reads as its
 * first value where one text is needed. Shared by the {@link Evaluator}, its function families and
 * the compiled evaluators ({@code io.quarry.ql.eval}), which must answer as it does.
 */
public final class EvalValues {
  private EvalValues() {}

  /** A test of one value against another (one pair of a multivalue comparison). */
  public interface Pairwise {
    boolean test(Object a, Object b);
  }

  public static Boolean anyMatch(Object left, Object right, Pairwise test) {
    for (Object a : left instanceof List<?> list ? list : List.of(left)) {
      for (Object b : right instanceof List<?> list ? list : List.of(right)) {
        if (test.test(a, b)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * {@link #comparison}'s answer for two numbers with a NaN: IEEE's unordered, under which every
   * comparison is false but {@code !=} ({@code nan=nan} false, {@code nan>5} false).
   */
  public static final int UNORDERED = Integer.MIN_VALUE;

  /** Whether {@code operator} holds for a {@link #comparison} {@code c}. */
  public static boolean compares(String operator, int c) {
    if (c == UNORDERED) {
      return operator.equals("!=");
    }
    return switch (operator) {
      case "=" -> c == 0;
      case "!=" -> c != 0;
      case "<" -> c < 0;
      case "<=" -> c <= 0;
      case ">" -> c > 0;
      default -> c >= 0;
    };
  }

  /**
   * {@link #compare} for the comparison operators: {@link #UNORDERED} when both are numbers and
   * either is a NaN (IEEE 754, as the Search Reference's eval "Numeric calculations" promises).
   */
  public static int comparison(Object a, Object b) {
    Object x = number(a);
    Object y = number(b);
    if (x instanceof Double d && d.isNaN() && y != null
        || y instanceof Double e && e.isNaN() && x != null) {
      return UNORDERED;
    }
    return compare(x, y, a, b);
  }

  /**
   * Numerically when both are numbers, else as case-sensitive text: a total order (a NaN after
   * every other number, as {@link Double#compare}), for min/max; the operators use {@link
   * #comparison}.
   */
  public static int compare(Object a, Object b) {
    return compare(number(a), number(b), a, b);
  }

  private static int compare(Object x, Object y, Object a, Object b) {
    if (x != null && y != null) {
      if (x instanceof Long l && y instanceof Long m) {
        return Long.compare(l, m);
      }
      return Double.compare(((Number) x).doubleValue(), ((Number) y).doubleValue());
    }
    return text(a).compareTo(text(b));
  }

  /** Whether {@code function} of one field reads the field's value typed ({@link #typed}). */
  public static boolean typesFieldValues(String function) {
    return switch (function) {
      case "typeof", "isnum", "isint", "isstr", "isdouble" -> true;
      default -> false;
    };
  }

  /**
   * A field's value as the type tests see it: text that reads as a number (no surrounding space) is
   * that number, a Long or a Double as {@link #number} reads it ({@code status=200} extracted is a
   * Number to {@code typeof}, {@code isnum} is true); any other value, a literal's text among them
   * ({@code typeof("12")} stays String), is itself. ARCHITECTURE.md "Decisions" gives the evidence.
   */
  public static Object typed(Object value) {
    if (value instanceof String s && !s.isEmpty() && s.strip().length() == s.length()) {
      Object number = number(s);
      return number == null ? s : number;
    }
    return value;
  }

  /**
   * {@code tonumber}'s reading of a value: {@link #number}, but a text with a leading or trailing
   * space is no number (the Search Reference, Conversion functions, {@code tonumber}: a value that
   * "contains a leading and trailing space" gives NULL; use {@code trim}).
   */
  public static Object tonumber(Object value) {
    return value instanceof String s && hasSurroundingSpace(s) ? null : number(value);
  }

  /** Whether a text starts or ends with white space. */
  public static boolean hasSurroundingSpace(String text) {
    return !text.isEmpty()
        && (Character.isWhitespace(text.charAt(0))
            || Character.isWhitespace(text.charAt(text.length() - 1)));
  }

  /** A value as a Long or Double, or null when it is not a number. */
  public static Object number(Object value) {
    if (value instanceof Long || value instanceof Double) {
      return value;
    }
    if (value instanceof String s) {
      double parsed = Values.parseNumber(s.strip());
      if (Double.isNaN(parsed)) {
        return null;
      }
      String stripped = s.strip();
      if (parsed == Math.rint(parsed)
          && Math.abs(parsed) < 0x1p53
          && stripped.indexOf('.') < 0
          && stripped.indexOf('e') < 0
          && stripped.indexOf('E') < 0) {
        return (long) parsed;
      }
      return parsed;
    }
    return null;
  }

  public static Object arithmetic(char operator, Object left, Object right) {
    Object x = number(left);
    Object y = number(right);
    if (x == null || y == null) {
      return null;
    }
    if (x instanceof Long a && y instanceof Long b) {
      try {
        return switch (operator) {
          case '+' -> Math.addExact(a, b);
          case '-' -> Math.subtractExact(a, b);
          case '*' -> Math.multiplyExact(a, b);
          case '/' -> b == 0 ? null : (a % b == 0 ? (Object) (a / b) : (Object) ((double) a / b));
          default -> b == 0 ? null : a % b;
        };
      } catch (ArithmeticException overflow) {
        // fall through to doubles
      }
    }
    double a = ((Number) x).doubleValue();
    double b = ((Number) y).doubleValue();
    return dividesByZero(operator, b) ? null : (Object) doubles(operator, a, b);
  }

  /**
   * Whether {@code operator} with the divisor {@code b} is a division by zero, which is null (the
   * Search Reference, eval, "Numeric calculations": "Division by zero results in a null field").
   */
  public static boolean dividesByZero(char operator, double b) {
    return b == 0 && (operator == '/' || operator == '%');
  }

  /**
   * {@code + - * / %} of two doubles as IEEE arithmetic answers them, an infinity or a NaN included
   * (shown as {@code inf}, {@code -inf}, {@code nan}: {@link Values#toText}); the caller has made a
   * division by zero null ({@link #dividesByZero}).
   */
  public static double doubles(char operator, double a, double b) {
    return switch (operator) {
      case '+' -> a + b;
      case '-' -> a - b;
      case '*' -> a * b;
      case '/' -> a / b;
      default -> a % b;
    };
  }

  public static String text(Object value) {
    if (value instanceof List<?> list) {
      return list.isEmpty() ? "" : text(list.get(0));
    }
    if (value instanceof Double d) {
      return Values.toText(d);
    }
    return String.valueOf(value);
  }

  /**
   * A field's values at a position of a page, as a row holds them (a timestamp block's microseconds
   * as a {@code Long}); none when the page has no such column or no value there.
   */
  public static List<Object> cell(io.quarry.plugin.api.data.Page page, String field, int position) {
    io.quarry.plugin.api.data.Block block = page.block(field);
    return block == null ? List.of() : Values.valuesOf(block, position);
  }

  public static List<Object> values(Object value) {
    if (value == null) {
      return List.of();
    }
    if (value instanceof List<?> list) {
      return new ArrayList<>(list);
    }
    return List.of(value);
  }

  public static Object multivalue(List<Object> values) {
    return switch (values.size()) {
      case 0 -> null;
      case 1 -> values.get(0);
      default -> List.copyOf(values);
    };
  }
}
