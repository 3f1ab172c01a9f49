package io.quarry.ql.exec;

import java.util.List;

/**
 * Eval's {@code sum(values…)} and {@code avg(values…)} (the Search Reference's "Statistical eval
 * functions"): every value of every argument that is a number or reads as one — each value of a
 * multivalue — counts; missing arguments and values that are not numbers are left out. {@code sum}
 * of whole numbers is whole (a double past a long's range), of any fraction a double. {@code avg}
 * is that sum divided by how many values counted, as the reference defines it ({@code avg(x,y)} is
 * {@code sum(x,y)/(mvcount(x)+mvcount(y))}), with eval's division: a whole answer a whole number,
 * else a double ({@code avg(5.0, "9")} is 7, the reference's example). No number at all: null.
 */
final class StatisticalFunctions {
  private StatisticalFunctions() {}

  static Object apply(String function, List<Object> arguments) {
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
}
