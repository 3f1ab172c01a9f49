package io.quarry.ql.eval;

import java.util.List;

/**
 * {@code coalesce(a, b, …)}: at each position the first argument's value that is not null. Every
 * argument is evaluated over the whole page, so the compiler builds this only over {@link
 * ExpressionEvaluator#total} arguments.
 */
final class CoalesceEvaluator implements ExpressionEvaluator {
  private final List<ExpressionEvaluator> arguments;

  CoalesceEvaluator(List<ExpressionEvaluator> arguments) {
    this.arguments = List.copyOf(arguments);
  }

  @Override
  public boolean total() {
    return arguments.stream().allMatch(ExpressionEvaluator::total);
  }

  @Override
  public ValueColumn eval(Frame frame) {
    int size = frame.size();
    ValueColumn[] columns = new ValueColumn[arguments.size()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = arguments.get(i).eval(frame);
    }
    ArrayColumn out = new ArrayColumn(size);
    for (int p = 0; p < size; p++) {
      out.setNull(p);
      for (ValueColumn column : columns) {
        if (column.kind(p) != ValueColumn.NULL) {
          out.copy(p, column, p);
          break;
        }
      }
    }
    return out;
  }
}
