package io.quarry.ql.eval;

import io.quarry.ql.exec.Evaluator;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The generic fallback for a function applied to its arguments' values: the arguments compiled, the
 * function itself {@link Evaluator#apply} at each position — so every such function has the {@code
 * Evaluator}'s answer, only without walking the argument trees per row. Not {@link #total} unless
 * the function is one that answers every input without throwing.
 */
final class CallEvaluator implements ExpressionEvaluator {
  /** Functions that answer any argument values without throwing or side effects. */
  private static final Set<String> TOTAL =
      Set.of(
          "null",
          "true",
          "false",
          "isnull",
          "isnotnull",
          "isnum",
          "isstr",
          "isint",
          "typeof",
          "nullif",
          "mvcount",
          "len",
          "lower",
          "upper",
          "substr",
          "trim",
          "ltrim",
          "rtrim",
          "tostring",
          "round",
          "floor",
          "ceil",
          "ceiling",
          "abs",
          "in",
          "min",
          "max",
          "mvindex",
          "mvjoin",
          "mvappend",
          "mvdedup",
          "mvsort");

  private final String function;
  private final List<ExpressionEvaluator> arguments;
  private final Evaluator evaluator;

  CallEvaluator(String function, List<ExpressionEvaluator> arguments, Evaluator evaluator) {
    if (!Evaluator.appliesToValues(function)) {
      throw new IllegalArgumentException(function + "() reads its argument expressions itself");
    }
    this.function = function;
    this.arguments = List.copyOf(arguments);
    this.evaluator = evaluator;
  }

  @Override
  public boolean total() {
    return TOTAL.contains(function) && arguments.stream().allMatch(ExpressionEvaluator::total);
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
      List<Object> values = new ArrayList<>(columns.length); // a function may keep its arguments
      for (ValueColumn column : columns) {
        values.add(column.get(p));
      }
      out.set(p, evaluator.apply(function, values));
    }
    return out;
  }
}
