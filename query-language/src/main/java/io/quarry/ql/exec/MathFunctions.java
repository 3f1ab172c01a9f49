package io.quarry.ql.exec;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The trigonometric and other numeric eval functions of Splunk's list that need nothing of the
 * evaluator: {@code acos asin atan atan2 cos sin tan} and their hyperbolic forms, {@code hypot},
 * {@code pi} and {@code random} ({@code exact} is {@link NumberFunctions}'s). Arguments are never
 * null here (a null argument makes the call null first); one that is not a number makes it null, as
 * does a result that is not a finite number ({@code acos(2)}).
 */
final class MathFunctions {
  private MathFunctions() {}

  static Object apply(String function, List<Object> arguments) {
    switch (function) {
      case "pi" -> {
        return Math.PI;
      }
      case "random" -> {
        return (long) ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE); // 0 to 2^31-2
      }
      default -> {}
    }
    double x = Values.toNumber(arguments.get(0));
    if (Double.isNaN(x)) {
      return null;
    }
    if (function.equals("atan2") || function.equals("hypot")) {
      double y = Values.toNumber(arguments.get(1));
      if (Double.isNaN(y)) {
        return null;
      }
      return finite(function.equals("atan2") ? Math.atan2(x, y) : Math.hypot(x, y));
    }
    return finite(
        switch (function) {
          case "acos" -> Math.acos(x);
          case "acosh" -> Math.log(x + Math.sqrt(x * x - 1));
          case "asin" -> Math.asin(x);
          case "asinh" -> Math.log(x + Math.sqrt(x * x + 1));
          case "atan" -> Math.atan(x);
          case "atanh" -> 0.5 * Math.log((1 + x) / (1 - x));
          case "cos" -> Math.cos(x);
          case "cosh" -> Math.cosh(x);
          case "sin" -> Math.sin(x);
          case "sinh" -> Math.sinh(x);
          case "tan" -> Math.tan(x);
          case "tanh" -> Math.tanh(x);
          default -> throw new IllegalStateException("not a math function: " + function);
        });
  }

  private static Object finite(double value) {
    return Double.isFinite(value) ? (Object) value : null;
  }
}
