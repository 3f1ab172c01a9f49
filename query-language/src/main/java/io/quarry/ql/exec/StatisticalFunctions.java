package io.quarry.ql.exec;

import java.util.List;

/**
 * Eval's {@code min(values…)}, {@code max(values…)}, {@code sum(values…)} and {@code avg(values…)}
 * (the Search Reference's "Statistical eval functions"; {@code random()} is {@link
 * MathFunctions}'). {@code min} and {@code max} read every value of every argument, numbers before
 * text, numbers numerically, text case-sensitively, a NaN among them answering NaN (as stats
 * min/max do, docs/search.md); no value: null. For {@code sum} and {@code avg} every value of every
 * argument that is a number or reads as one — each value of a multivalue — counts; missing
 * arguments and values that are not numbers are left out. {@code sum} of whole numbers is whole (a
 * double past a long's range), of any fraction a double. {@code avg} is that sum divided by how
 * many values counted, as the reference defines it ({@code avg(x,y)} is {@code
 * sum(x,y)/(mvcount(x)+mvcount(y))}), with eval's division: a whole answer a whole number, else a
 * double ({@code avg(5.0, "9")} is 7, the reference's example). No number at all: null.
 */
final class StatisticalFunctions {
  private StatisticalFunctions() {}

  static Object apply(String function, List<Object> arguments) {
    if (function.equals("min") || function.equals("max")) {
      return extreme(function.equals("min"), arguments);
    }
    long whole = 0;
    double fraction = 0;
    boolean exact = true;
    long count = 0;
    for (Object argument : arguments) {
      for (Object value : EvalValues.values(argument)) {
        Object number = EvalValues.number(value);
        if (number == null) {
          continue;
        }
        count++;
        if (exact && number instanceof Long l) {
          long sum = whole + l;
          if (((whole ^ sum) & (l ^ sum)) < 0) {
            exact = false; // past a long: go on in doubles
            fraction = (double) whole + l;
          } else {
            whole = sum;
          }
        } else {
          if (exact) {
            exact = false;
            fraction = whole;
          }
          fraction += ((Number) number).doubleValue();
        }
      }
    }
    if (count == 0) {
      return null;
    }
    if (function.equals("sum")) {
      return exact ? (Object) whole : finite(fraction);
    }
    if (exact) {
      return whole % count == 0 ? (Object) (whole / count) : (Object) ((double) whole / count);
    }
    double mean = fraction / count;
    return mean == Math.rint(mean) && Math.abs(mean) < 0x1p53 ? (Object) (long) mean : finite(mean);
  }

  private static Object finite(double value) {
    return Double.isFinite(value) ? (Object) value : null;
  }

  private static Object extreme(boolean min, List<Object> arguments) {
    Object best = null;
    for (Object value : arguments) {
      for (Object each : EvalValues.values(value)) {
        if (each instanceof Double d && d.isNaN()) {
          return d; // a NaN among numbers: NaN, as stats min/max answer (docs/search.md)
        }
        if (best == null || (min ? minOrder(each, best) < 0 : minOrder(each, best) > 0)) {
          best = each;
        }
      }
    }
    return best;
  }

  /** Numbers before text, numbers numerically, text case-sensitively (min/max). */
  private static int minOrder(Object a, Object b) {
    Object x = EvalValues.number(a);
    Object y = EvalValues.number(b);
    if ((x == null) != (y == null)) {
      return x != null ? -1 : 1;
    }
    return EvalValues.compare(a, b);
  }
}
