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
 *
 * <p>Only a call with two or more arguments that are not literals comes here ({@code substr(x, 1,
 * n)}, {@code replace(x, re, y)} with a field for {@code re}), and {@code random()}/{@code time()}:
 * every function of its arguments alone whose arguments are literals but one is bound to them once
 * ({@link BoundCallEvaluator}) — the text family ({@code substr replace trim ltrim rtrim split
 * urldecode match like md5 sha1 sha256 sha512 tonumber(x, base) tostring(x, format)}), the numbers
 * ({@code round floor ceil abs sqrt ln exp log pow exact}, typed over numbers), time ({@code
 * strftime strptime relative_time}), the multivalues ({@code mvcount mvindex mvjoin mvfind mvdedup
 * mvsort}), {@code cidrmatch}, {@code ipmask}, the bitwise functions ({@code bit_and …}), {@code
 * in}, the JSON functions — and {@code len lower upper tostring(x) tonumber(x)} have their own node
 * ({@link TextFunctionEvaluator}).
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
          "isbool",
          "isdouble",
          "isarray",
          "isobject",
          "ismv",
          "validate",
          "sum",
          "avg",
          "bit_and",
          "bit_or",
          "bit_xor",
          "bit_not",
          "bit_shift_left",
          "bit_shift_right",
          "ipmask",
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
    return total(function, arguments);
  }

  /** Whether {@code function} over {@code arguments} is {@link ExpressionEvaluator#total}. */
  static boolean total(String function, List<ExpressionEvaluator> arguments) {
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
