package io.quarry.ql.exec;

import static io.quarry.ql.exec.EvalValues.number;

import java.util.List;

/**
 * The arithmetic eval functions: {@code round floor ceil ceiling abs sqrt ln exp log pow}. Whole
 * numbers stay whole where Splunk keeps them so ({@code floor}, {@code abs} of a whole number,
 * {@code pow} of two whole numbers with a whole result below 2^53); a result that is not a finite
 * number is null. Each is bound to its arguments after the first ({@link BoundFunction}: read
 * once). Arguments are never null here (a null argument makes the call null first).
 */
final class NumberFunctions {
  private NumberFunctions() {}

  /**
   * Splunk's {@code round(X, Y)}: X scaled by 10^Y in binary floating point, rounded half away from
   * zero, scaled back — so {@code round(10.275, 2)} is 10.28 but {@code round(16.275, 2)} is 16.27
   * (16.275 × 100 is 1627.4999… as a double), the answers Splunk gives. A whole number for Y ≤ 0.
   */
  static Object round(double x, int digits) {
    double scale = Math.pow(10, Math.abs(digits));
    double scaled = digits >= 0 ? x * scale : x / scale;
    if (Math.abs(scaled) >= 0x1p52) {
      return digits <= 0 ? (Object) (long) x : (Object) x; // no fraction left to round
    }
    double whole = Math.signum(scaled) * Math.floor(Math.abs(scaled) + 0.5);
    if (digits <= 0) {
      return (long) (digits == 0 ? whole : whole * scale);
    }
    return whole / scale;
  }

  /**
   * {@code function} with its arguments after the first fixed to {@code rest} (none null), or null
   * when it is not an arithmetic function: digits, base or exponent read once.
   */
  static BoundFunction bind(String function, List<Object> rest) {
    switch (function) {
      case "round":
        {
          // doubles carry 17 significant digits: more decimals change nothing but cost memory
          int digits =
              !rest.isEmpty() && number(rest.get(0)) instanceof Number n
                  ? (int) Math.max(-17, Math.min(17, n.longValue()))
                  : 0;
          return a -> {
            Object x = number(a);
            if (x == null || (x instanceof Double d && !Double.isFinite(d))) {
              return null;
            }
            return round(((Number) x).doubleValue(), digits);
          };
        }
      case "floor":
      case "ceil":
      case "ceiling":
      case "abs":
      case "sqrt":
      case "ln":
      case "exp":
        return a -> math(function, a);
      case "log":
        {
          Object base = rest.isEmpty() ? 10L : number(rest.get(0));
          return a -> {
            Object x = number(a);
            if (x == null || base == null) {
              return null;
            }
            double value = ((Number) x).doubleValue();
            double b = ((Number) base).doubleValue();
            return finite(b == 10 ? Math.log10(value) : Math.log(value) / Math.log(b));
          };
        }
      case "pow":
        {
          Object y = number(rest.get(0));
          return a -> {
            Object x = number(a);
            if (x == null || y == null) {
              return null;
            }
            double result = Math.pow(((Number) x).doubleValue(), ((Number) y).doubleValue());
            return x instanceof Long
                    && y instanceof Long
                    && Math.abs(result) < 0x1p53
                    && result == Math.rint(result)
                ? (Object) (long) result
                : finite(result);
          };
        }
      default:
        return null;
    }
  }

  private static Object finite(double value) {
    return Double.isFinite(value) ? value : null;
  }

  private static Object math(String function, Object a) {
    Object x = number(a);
    if (x == null) {
      return null;
    }
    if (x instanceof Long l) {
      switch (function) {
        case "floor", "ceil", "ceiling" -> {
          return l;
        }
        case "abs" -> {
          return l == Long.MIN_VALUE ? null : Math.abs(l);
        }
        default -> {}
      }
    }
    double d = ((Number) x).doubleValue();
    return switch (function) {
      case "floor" -> (long) Math.floor(d);
      case "ceil", "ceiling" -> (long) Math.ceil(d);
      case "abs" -> Math.abs(d);
      case "sqrt" -> finite(Math.sqrt(d));
      case "ln" -> finite(Math.log(d));
      default -> finite(Math.exp(d));
    };
  }
}
