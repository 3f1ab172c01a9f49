package io.quarry.ql.eval;

/**
 * One compiled expression (or part of one): its value at every position of a page at once. Built
 * once per driver (a page chain) by {@link ExpressionCompiler} (ES|QL's {@code
 * ExpressionEvaluator}); an instance keeps no state between pages but may be used by one thread at
 * a time only (its function fallbacks share the search's {@code Evaluator}).
 */
public interface ExpressionEvaluator {
  /** The expression's values at each position of {@code frame}'s page. */
  ValueColumn eval(Frame frame);

  /**
   * Whether evaluating at every position is safe where {@code Evaluator} evaluates only at some
   * (the branch an {@code if} did not take, the right side of an {@code AND} after a false): true
   * when it can throw for no input and has no side effect. Conditionals over an evaluator that is
   * not total are evaluated position by position, as {@code Evaluator} does.
   */
  default boolean total() {
    return true;
  }
}
