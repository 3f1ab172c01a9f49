/**
 * Expressions compiled once per driver (a page chain) into evaluators over pages (issue 21, step
 * 6): {@link io.quarry.ql.eval.ExpressionCompiler} turns an {@code eval}/{@code where} expression
 * tree into a tree of {@link io.quarry.ql.eval.ExpressionEvaluator}s, each answering a whole page
 * at once as a {@link io.quarry.ql.eval.ValueColumn} — typed fast paths for field references (a
 * view of the block, no copy), literals (one constant), arithmetic, comparisons, logic,
 * conditionals, null tests, concatenation and the common text functions; every other function is
 * applied per position through {@link io.quarry.ql.exec.Evaluator} ({@code CallEvaluator}, and
 * {@code RowFallbackEvaluator} for whole subtrees), so every expression compiles. The answers are
 * the {@code Evaluator}'s exactly — integer or double, null propagation, multivalues (which the
 * fast paths hand to the shared per-value code of {@link io.quarry.ql.exec.EvalValues}) — and
 * {@code CompiledEvaluatorTest} proves it on random pages. {@link io.quarry.ql.eval.ColumnBlocks}
 * makes a block of an answer, typed as {@code PageBuilder} types a column; {@link
 * io.quarry.ql.eval.Selection} the positions a condition keeps. {@link
 * io.quarry.ql.eval.SearchFilter} does the same for {@code search}'s field comparisons, and for
 * {@code searchmatch()}'s whole search ({@code SearchMatchEvaluator}: its terms matched in the
 * page's {@code _raw} by the evaluator's {@link io.quarry.ql.exec.RawTermMatcher}).
 */
package io.quarry.ql.eval;
