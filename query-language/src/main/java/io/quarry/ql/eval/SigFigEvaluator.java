package io.quarry.ql.eval;

import io.quarry.ql.ast.Expression;
import io.quarry.ql.exec.SigFig;
import java.util.List;

/**
 * {@code sigfig(x)} over a page: {@code x} and the operands whose written precision decides the
 * answer ({@code SigFigOperands}) each compiled and evaluated once over the page, then {@link
 * SigFig}'s rule applied at each position to their values.
 */
final class SigFigEvaluator implements ExpressionEvaluator {
  private final List<Expression> arguments;
  private final ExpressionEvaluator argument;
  private final List<Expression> operands;
  private final List<ExpressionEvaluator> operandEvaluators;

  SigFigEvaluator(
      List<Expression> arguments,
      ExpressionEvaluator argument,
      List<Expression> operands,
      List<ExpressionEvaluator> operandEvaluators) {
    this.arguments = List.copyOf(arguments);
    this.argument = argument;
    this.operands = List.copyOf(operands);
    this.operandEvaluators = List.copyOf(operandEvaluators);
  }

  @Override
  public boolean total() {
    return argument.total() && operandEvaluators.stream().allMatch(ExpressionEvaluator::total);
  }

  @Override
  public ValueColumn eval(Frame frame) {
    int size = frame.size();
    ValueColumn value = argument.eval(frame);
    ValueColumn[] operandValues = new ValueColumn[operands.size()];
    Expression whole = arguments.get(0);
    ArrayColumn out = new ArrayColumn(size);
    for (int p = 0; p < size; p++) {
      int position = p;
      out.set(
          p,
          SigFig.evaluate(
              arguments,
              expression -> {
                if (expression == whole) {
                  return value.get(position);
                }
                int i = indexOf(expression);
                if (operandValues[i] == null) {
                  operandValues[i] = operandEvaluators.get(i).eval(frame);
                }
                return operandValues[i].get(position);
              }));
    }
    return out;
  }

  private int indexOf(Expression operand) {
    for (int i = 0; i < operands.size(); i++) {
      if (operands.get(i) == operand) {
        return i;
      }
    }
    throw new IllegalStateException("not an operand of sigfig's argument: " + operand);
  }
}
