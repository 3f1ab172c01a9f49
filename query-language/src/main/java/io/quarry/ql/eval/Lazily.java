package io.quarry.ql.eval;

/**
 * A part of an expression evaluated only at the positions where {@code Evaluator} evaluates it —
 * the branch an {@code if} or {@code case} takes, the right side of an {@code AND} whose left is
 * not false, a {@code coalesce} argument after nulls: a part that is {@link
 * ExpressionEvaluator#total} over the whole page (cheaper, and it cannot tell), any other over the
 * chosen positions alone ({@link Frame#select}: the page's fields read in place through the
 * positions, the assigned columns it may read copied, {@link ReadsFields}), its values put back at
 * those positions. So a branch that may throw ({@code tonumber("x", 99)}) or write ({@code
 * outputlookup}'s functions) does so exactly where the row-at-a-time evaluation did.
 */
final class Lazily {
  private Lazily() {}

  /**
   * {@code part}'s values at the positions {@code where[p]} of {@code frame}; any other position
   * holds an unspecified value (the caller reads only the chosen ones).
   */
  static ValueColumn evalWhere(ExpressionEvaluator part, Frame frame, boolean[] where) {
    if (part.total()) {
      return part.eval(frame);
    }
    int size = frame.size();
    int[] positions = new int[size];
    int count = 0;
    for (int p = 0; p < size; p++) {
      if (where[p]) {
        positions[count++] = p;
      }
    }
    if (count == size) {
      return part.eval(frame);
    }
    if (count == 0) {
      return new ConstantColumn(null, size);
    }
    ValueColumn chosen = part.eval(ReadsFields.narrowed(part, frame).select(positions, count));
    ArrayColumn out = new ArrayColumn(size);
    for (int i = 0; i < count; i++) {
      out.copy(positions[i], chosen, i);
    }
    return out;
  }
}
