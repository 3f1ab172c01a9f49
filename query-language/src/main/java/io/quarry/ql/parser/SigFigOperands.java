package io.quarry.ql.parser;

import io.quarry.ql.ast.Expression;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code sigfig(x)} needs from the query text: Splunk rounds by the operands of the
 * calculation that made {@code x} as they were written ({@code 1.00} has three significant figures,
 * the number 1.0 has lost two). The parser hands {@code sigfig} a hidden second argument, the
 * written text of each operand that is a number literal ({@link #written}); the evaluator fills in
 * the others' values. Operands are those of the top-level chain of multiplications and divisions,
 * or of additions and subtractions ({@link #operands}). {@link SplText} writes the call back
 * without the hidden argument, its numbers as written.
 */
public final class SigFigOperands {
  /** Between operands' texts in the hidden argument. */
  public static final String SEPARATOR = "|";

  private SigFigOperands() {}

  /** The operator class of the argument's top level: {@code *} or {@code +}; null for neither. */
  public static String kind(Expression argument) {
    if (argument instanceof Expression.Binary binary) {
      return switch (binary.operator()) {
        case "*", "/" -> "*";
        case "+", "-" -> "+";
        default -> null;
      };
    }
    return null;
  }

  /** The operands of the argument's top-level chain of its kind, left to right. */
  public static List<Expression> operands(Expression argument) {
    List<Expression> operands = new ArrayList<>();
    String kind = kind(argument);
    collect(argument, kind, operands);
    return operands;
  }

  private static void collect(Expression expression, String kind, List<Expression> into) {
    if (kind != null
        && expression instanceof Expression.Binary binary
        && kind.equals(kind(binary))) {
      collect(binary.left(), kind, into);
      collect(binary.right(), kind, into);
    } else {
      into.add(expression);
    }
  }

  /** The hidden argument: each operand's written number, empty for an operand that is not one. */
  static String written(Expression argument, Map<Expression, String> numberTexts) {
    List<String> texts = new ArrayList<>();
    for (Expression operand : operands(argument)) {
      Expression inner =
          operand instanceof Expression.Unary unary && unary.operator().equals("-")
              ? unary.operand()
              : operand;
      String text = numberTexts.get(inner);
      texts.add(text == null ? "" : text);
    }
    return String.join(SEPARATOR, texts);
  }
}
