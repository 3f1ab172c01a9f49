package io.quarry.ql.eval;

import java.util.Set;

/**
 * A part of an expression with the page fields it reads ({@code _raw} and the event's own text for
 * a {@code searchmatch} term): where the part is evaluated over some positions only ({@link
 * Lazily}, {@code mvmap}'s values), only these columns are copied for them, not the whole page.
 * Evaluates as {@code part} does.
 */
record ReadsFields(ExpressionEvaluator part, Set<String> fields) implements ExpressionEvaluator {
  @Override
  public ValueColumn eval(Frame frame) {
    return part.eval(frame);
  }

  @Override
  public boolean total() {
    return part.total();
  }

  /** {@code frame} with only the page columns {@code part} may read. */
  static Frame narrowed(ExpressionEvaluator part, Frame frame) {
    return part instanceof ReadsFields reads ? frame.narrow(reads.fields) : frame;
  }
}
