package io.quarry.ql.exec;

import static io.quarry.ql.exec.EvalValues.number;

import io.quarry.ql.exec.NumberFunction.DoubleRule;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * The arithmetic eval functions: {@code round floor ceil ceiling abs sqrt ln exp log pow}. Whole
 * numbers stay whole where Splunk keeps them so ({@code floor}, {@code abs} of a whole number,
 * {@code pow} of two whole numbers with a whole result below 2^53); a result that is not a finite
 * number is null; {@code exact} is its number unchanged (Quarry's arithmetic is already exact).
 * Each is bound to its arguments after the first (a {@link NumberFunction}: read once, typed rules
 * for a whole number and a double). Arguments are never null here (a null argument makes the call
 * null first).
 */
final class NumberFunctions {
  private NumberFunctions() {}

  /**
   * Splunk's {@code round(X, Y)}: X scaled by 10^Y in binary floating point, rounded half away from
   * zero, scaled back — so {@code round(10.275, 2)} is 10.28 but {@code round(16.275, 2)} is 16.27
   * (16.275 × 100 is 1627.4999… as a double), the answers Splunk gives. A whole number for Y ≤ 0
   * (the caller casts: the value returned is then whole).
   */
  static double round(double x, int digits) {
    double scale = Math.pow(10, Math.abs(digits));
    double scaled = digits >= 0 ? x * scale : x / scale;
    if (Math.abs(scaled) >= 0x1p52) {
      return x; // no fraction left to round
    }
    double whole = Math.signum(scaled) * Math.floor(Math.abs(scaled) + 0.5);
    return digits == 0 ? whole : digits < 0 ? whole * scale : whole / scale;
  }

  /**
   * {@code function} with its arguments after the first fixed to {@code rest} (none null), or null
   * when it is not an arithmetic function: digits, base or exponent read once.
   */
  static NumberFunction bind(String function, List<Object> rest) {
    switch (function) {
      case "round":
        {
          // doubles carry 17 significant digits: more decimals change nothing but cost memory
          int digits =
              !rest.isEmpty() && number(rest.get(0)) instanceof Number n
                  ? (int) Math.max(-17, Math.min(17, n.longValue()))
                  : 0;
          DoubleRule rule =
              digits <= 0
                  ? (x, out) -> {
                    if (Double.isFinite(x)) {
                      whole(round(x, digits), out);
                    } else {
                      out.setNull();
                    }
                  }
                  : (x, out) -> {
                    if (Double.isFinite(x)) {
                      out.setDouble(round(x, digits));
                    } else {
                      out.setNull();
                    }
                  };
          return new NumberFunction((x, out) -> rule.apply(x, out), rule);
        }
      case "floor":
        return new NumberFunction(
            (x, out) -> out.setLong(x), (x, out) -> whole(Math.floor(x), out));
      case "ceil":
      case "ceiling":
        return new NumberFunction((x, out) -> out.setLong(x), (x, out) -> whole(Math.ceil(x), out));
      case "abs":
        return new NumberFunction(
            (x, out) -> {
              if (x == Long.MIN_VALUE) {
                out.setNull();
              } else {
                out.setLong(Math.abs(x));
              }
            },
            (x, out) -> out.setDouble(Math.abs(x)));
      case "exact": // Quarry's arithmetic is already exact
        return new NumberFunction((x, out) -> out.setLong(x), (x, out) -> out.setDouble(x));
      case "sqrt":
        return ofDouble(x -> Math.sqrt(x));
      case "ln":
        return ofDouble(x -> Math.log(x));
      case "exp":
        return ofDouble(x -> Math.exp(x));
      case "log":
        {
          Object base = rest.isEmpty() ? 10L : number(rest.get(0));
          if (base == null) {
            return new NumberFunction((x, out) -> out.setNull(), (x, out) -> out.setNull());
          }
          double b = ((Number) base).doubleValue();
          double lnBase = Math.log(b);
          return ofDouble(b == 10 ? x -> Math.log10(x) : x -> Math.log(x) / lnBase);
        }
      case "pow":
        {
          Object y = number(rest.get(0));
          if (y == null) {
            return new NumberFunction((x, out) -> out.setNull(), (x, out) -> out.setNull());
          }
          double exponent = ((Number) y).doubleValue();
          DoubleRule ofDouble = finite(x -> Math.pow(x, exponent));
          if (!(y instanceof Long)) {
            return new NumberFunction((x, out) -> ofDouble.apply(x, out), ofDouble);
          }
          return new NumberFunction(
              (x, out) -> {
                double result = Math.pow(x, exponent);
                if (Math.abs(result) < 0x1p53 && result == Math.rint(result)) {
                  out.setLong((long) result);
                } else {
                  finite(result, out);
                }
              },
              ofDouble);
        }
      default:
        return null;
    }
  }

  /**
   * A whole double as a whole number where a long holds it; a larger one stays a double ({@code
   * floor(1e20)} is 1e20, not the greatest long); an infinity or a NaN is null, as every function
   * here answers a result that is not a finite number.
   */
  private static void whole(double value, NumberFunction.Out out) {
    if (Math.abs(value) < 0x1p63) {
      out.setLong((long) value);
    } else {
      finite(value, out);
    }
  }

  /** A function of a number as a double, null where its value is not a finite number. */
  private static NumberFunction ofDouble(DoubleUnaryOperator function) {
    DoubleRule rule = finite(function);
    return new NumberFunction((x, out) -> rule.apply(x, out), rule);
  }

  private static DoubleRule finite(DoubleUnaryOperator function) {
    return (x, out) -> finite(function.applyAsDouble(x), out);
  }

  private static void finite(double value, NumberFunction.Out out) {
    if (Double.isFinite(value)) {
      out.setDouble(value);
    } else {
      out.setNull();
    }
  }
}
