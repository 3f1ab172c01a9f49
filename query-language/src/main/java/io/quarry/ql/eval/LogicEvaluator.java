package io.quarry.ql.eval;

/**
 * {@code AND}, {@code OR}, {@code XOR} with {@code Evaluator}'s three-valued rules: {@code AND} is
 * false when either side is false, true when both are true, else null ({@code OR} dually); {@code
 * XOR} is null unless both sides are booleans. The right side of {@code AND}/{@code OR} is
 * evaluated only where the left does not decide ({@link Lazily}: at every position when it is
 * {@link ExpressionEvaluator#total}), as {@code Evaluator} evaluates it.
 */
final class LogicEvaluator implements ExpressionEvaluator {
  private final int code;
  private final ExpressionEvaluator left;
  private final ExpressionEvaluator right;

  LogicEvaluator(String operator, ExpressionEvaluator left, ExpressionEvaluator right) {
    if (!operator.equals("AND") && !operator.equals("OR") && !operator.equals("XOR")) {
      throw new IllegalArgumentException("not a logical operator: " + operator);
    }
    this.code = operator.equals("AND") ? AND : operator.equals("OR") ? OR : XOR;
    this.left = left;
    this.right = right;
  }

  @Override
  public boolean total() {
    return left.total() && right.total();
  }

  @Override
  public ValueColumn eval(Frame frame) {
    ValueColumn a = left.eval(frame);
    int size = frame.size();
    ValueColumn b;
    if (code == XOR || right.total()) {
      b = right.eval(frame);
    } else {
      boolean[] undecided = new boolean[size];
      byte decides = code == AND ? FALSE : TRUE;
      for (int p = 0; p < size; p++) {
        undecided[p] = truth(a, p) != decides;
      }
      b = Lazily.evalWhere(right, frame, undecided);
    }
    ArrayColumn out = new ArrayColumn(size);
    for (int p = 0; p < size; p++) {
      byte l = truth(a, p);
      byte r = truth(b, p);
      byte result =
          switch (code) {
            case AND -> l == FALSE || r == FALSE ? FALSE : l == TRUE && r == TRUE ? TRUE : NONE;
            case OR -> l == TRUE || r == TRUE ? TRUE : l == FALSE && r == FALSE ? FALSE : NONE;
            default -> l == NONE || r == NONE ? NONE : l != r ? TRUE : FALSE;
          };
      if (result == NONE) {
        out.setNull(p);
      } else {
        out.setBoolean(p, result == TRUE);
      }
    }
    return out;
  }

  private static final int AND = 0;
  private static final int OR = 1;
  private static final int XOR = 2;

  private static final byte NONE = 0;
  private static final byte FALSE = 1;
  private static final byte TRUE = 2;

  /** A boolean position's truth; anything else (null, a number, a text) is neither. */
  private static byte truth(ValueColumn column, int p) {
    if (column.kind(p) != ValueColumn.BOOLEAN) {
      return NONE;
    }
    return column.getBoolean(p) ? TRUE : FALSE;
  }
}
