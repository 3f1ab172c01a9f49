package io.quarry.ql.eval;

import io.quarry.ql.exec.EvalValues;
import io.quarry.ql.exec.Evaluator;
import java.util.List;
import java.util.Locale;

/**
 * The one-argument functions that are a text's or a number's simple conversion: {@code len}, {@code
 * lower}, {@code upper}, {@code tostring(x)}, {@code tonumber(x)}. Null for a null argument; a
 * single value converted here without the per-row call; a multivalue (or any value these do not
 * expect) through {@code Evaluator}'s function ({@link Evaluator#apply}); the values of a
 * dictionary once per entry ({@link BoundCallEvaluator#overDictionary}).
 */
final class TextFunctionEvaluator implements ExpressionEvaluator {
  /** Whether {@code function} with {@code arity} arguments is compiled here. */
  static boolean handles(String function, int arity) {
    return arity == 1
        && switch (function) {
          case "len", "lower", "upper", "tostring", "tonumber" -> true;
          default -> false;
        };
  }

  private final String function;
  private final ExpressionEvaluator operand;
  private final Evaluator evaluator;
  private final io.quarry.ql.exec.BoundFunction bound; // over a dictionary: once per entry

  TextFunctionEvaluator(String function, ExpressionEvaluator operand, Evaluator evaluator) {
    if (!handles(function, 1)) {
      throw new IllegalArgumentException(function + " is not compiled as a text function");
    }
    this.function = function;
    this.operand = operand;
    this.evaluator = evaluator;
    this.bound = evaluator.bind(function, 0, java.util.Arrays.asList((Object) null));
  }

  @Override
  public boolean total() {
    return operand.total();
  }

  @Override
  public ValueColumn eval(Frame frame) {
    ValueColumn values = operand.eval(frame);
    ValueColumn entries = BoundCallEvaluator.overDictionary(bound, values);
    if (entries != null) {
      return entries;
    }
    int size = frame.size();
    ArrayColumn out = new ArrayColumn(size);
    for (int p = 0; p < size; p++) {
      byte kind = values.kind(p);
      switch (kind) {
        case ValueColumn.NULL -> out.setNull(p);
        case ValueColumn.LONG, ValueColumn.DOUBLE, ValueColumn.BOOLEAN, ValueColumn.TEXT ->
            single(out, p, values, kind);
        default -> out.set(p, evaluator.apply(function, List.of(values.get(p))));
      }
    }
    return out;
  }

  private void single(ArrayColumn out, int p, ValueColumn values, byte kind) {
    switch (function) {
      case "len" -> {
        String text = ColumnValues.text(values, p);
        out.setLong(p, text.codePointCount(0, text.length()));
      }
      case "lower" -> out.setText(p, ColumnValues.text(values, p).toLowerCase(Locale.ROOT));
      case "upper" -> out.setText(p, ColumnValues.text(values, p).toUpperCase(Locale.ROOT));
      case "tostring" -> {
        if (kind == ValueColumn.BOOLEAN) {
          out.setText(p, values.getBoolean(p) ? "True" : "False");
        } else {
          out.setText(p, ColumnValues.text(values, p));
        }
      }
      default -> { // tonumber
        switch (kind) {
          case ValueColumn.LONG -> out.setLong(p, values.getLong(p));
          case ValueColumn.DOUBLE -> out.setDouble(p, values.getDouble(p));
          case ValueColumn.TEXT -> out.set(p, EvalValues.tonumber(values.getText(p)));
          default -> out.setNull(p);
        }
      }
    }
  }
}
