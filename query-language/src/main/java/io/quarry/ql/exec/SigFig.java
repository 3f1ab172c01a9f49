package io.quarry.ql.exec;

import io.quarry.ql.ast.Expression;
import io.quarry.ql.parser.SigFigOperands;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.function.Function;

/**
 * {@code sigfig(x)}, Splunk's rule for the precision of a calculated number: the result of
 * multiplications and divisions keeps as many significant figures as the operand with the fewest,
 * the result of additions and subtractions as many decimal places as the operand with the fewest
 * ({@code sigfig(1.00*1111)} is 1110, {@code sigfig(1.5+2.25)} 3.8). Number literals count as
 * written (the parser keeps their text: {@link SigFigOperands}), other operands by their value's
 * text. Anything else (a number, a field) is returned as it is; a result that is not a number is
 * null.
 */
public final class SigFig {
  private SigFig() {}

  /**
   * {@code sigfig}'s value: {@code evaluate} gives the value of its argument and of the argument's
   * operands (asked for each at most once, the argument first).
   */
  public static Object evaluate(List<Expression> arguments, Function<Expression, Object> evaluate) {
    Expression argument = arguments.get(0);
    Object value = evaluate.apply(argument);
    if (value == null) {
      return null;
    }
    double number = Values.toNumber(value);
    if (Double.isNaN(number) || Double.isInfinite(number)) {
      return null;
    }
    String kind = SigFigOperands.kind(argument);
    if (kind == null) {
      return value;
    }
    List<Expression> operands = SigFigOperands.operands(argument);
    String[] written =
        arguments.size() > 1 && arguments.get(1) instanceof Expression.Literal(String texts)
            ? texts.split(java.util.regex.Pattern.quote(SigFigOperands.SEPARATOR), -1)
            : new String[0];
    int least = Integer.MAX_VALUE;
    for (int i = 0; i < operands.size(); i++) {
      String text = i < written.length && !written[i].isEmpty() ? written[i] : null;
      if (text == null) {
        Object operand = evaluate.apply(operands.get(i));
        if (operand == null || Double.isNaN(Values.toNumber(operand))) {
          return null;
        }
        text = Values.toText(operand);
      }
      least = Math.min(least, kind.equals("*") ? significantFigures(text) : decimals(text));
    }
    BigDecimal exact = new BigDecimal(Double.toString(number));
    BigDecimal rounded =
        kind.equals("*")
            ? exact.round(new MathContext(Math.max(1, least), RoundingMode.HALF_UP))
            : exact.setScale(least, RoundingMode.HALF_UP);
    if (rounded.signum() == 0 || rounded.stripTrailingZeros().scale() <= 0) {
      try {
        return rounded.longValueExact();
      } catch (ArithmeticException tooLarge) {
        return rounded.doubleValue();
      }
    }
    return rounded.doubleValue();
  }

  /**
   * The significant figures of a written number: its digits from the first that is not zero; the
   * zeros that end a whole number without a decimal point do not count ({@code 1100}: 2, {@code
   * 1100.}: 4, {@code 0.0450}: 3).
   */
  static int significantFigures(String text) {
    String mantissa = text.strip();
    int e = Math.max(mantissa.indexOf('e'), mantissa.indexOf('E'));
    if (e >= 0) {
      mantissa = mantissa.substring(0, e);
    }
    if (mantissa.startsWith("-") || mantissa.startsWith("+")) {
      mantissa = mantissa.substring(1);
    }
    boolean point = mantissa.indexOf('.') >= 0;
    String digits = mantissa.replace(".", "");
    int first = 0;
    while (first < digits.length() && digits.charAt(first) == '0') {
      first++;
    }
    if (first == digits.length()) {
      return 1; // zero
    }
    int last = digits.length();
    if (!point) {
      while (last > first + 1 && digits.charAt(last - 1) == '0') {
        last--;
      }
    }
    return last - first;
  }

  /** The decimal places of a written number ({@code 2.50}: 2, {@code 7}: 0). */
  static int decimals(String text) {
    String number = text.strip();
    int e = Math.max(number.indexOf('e'), number.indexOf('E'));
    int exponent = 0;
    if (e >= 0) {
      try {
        exponent = Integer.parseInt(number.substring(e + 1));
      } catch (NumberFormatException notOne) {
        exponent = 0;
      }
      number = number.substring(0, e);
    }
    int point = number.indexOf('.');
    int places = point < 0 ? 0 : number.length() - point - 1;
    return Math.max(0, places - exponent);
  }
}
