package io.quarry.ql.exec;

/**
 * An eval function with all its arguments but one (the subject) fixed, prepared once ({@link
 * Evaluator#bind}: a pattern compiled, a format parsed, a number read): its value for each value of
 * the subject, exactly what {@link Evaluator#apply} answers for the whole argument list. Bound only
 * for functions of their arguments alone, so the same subject always gives an equal value (a caller
 * may apply it once per distinct subject).
 */
@FunctionalInterface
public interface BoundFunction {
  /** The function's value with {@code subject} (an {@code Evaluator} value, null too) in place. */
  Object apply(Object subject);
}
