/**
 * Expressions compiled once per driver (a page chain) into evaluators over pages (issue 21, step
 * 6): {@link io.quarry.ql.eval.ExpressionCompiler} turns an {@code eval}/{@code where} expression
 * tree into a tree of {@link io.quarry.ql.eval.ExpressionEvaluator}s, each answering a whole page
 * at once as a {@link io.quarry.ql.eval.ValueColumn} — typed fast paths for field references (a
 * view of the block, no copy), literals (one constant), arithmetic, comparisons, logic,
 * conditionals (a part evaluated only where it is taken: {@code Lazily}), null tests,
 * concatenation, the common text functions, {@code mvfilter}/{@code mvmap} (their expression over
 * all of a page's values at once: {@code MultivalueEvaluator}) and {@code sigfig}; a function whose
 * arguments are literals but one bound to them once ({@link io.quarry.ql.exec.Evaluator#bind}) and
 * applied once per constant, per dictionary entry read ({@code DictionaryColumn}) or per position
 * ({@code BoundCallEvaluator}; an arithmetic function over numbers by its typed rules without
 * boxing: {@code TypedNumbers}); a type test of a field ({@code typeof}, {@code isnum} …) reads its
 * numeric text as a number ({@code TypedFieldEvaluator}); every other function is applied at each
 * position to its compiled arguments' values by {@link io.quarry.ql.exec.Evaluator#apply} ({@code
 * CallEvaluator}). A part evaluated only where it is taken reads the page's fields through the
 * chosen positions ({@code SelectedColumn}), not a copy. Every expression compiles, and no node
 * walks an expression tree per row. The answers are the {@code Evaluator}'s exactly — integer or
 * double, null propagation, multivalues (which the fast paths hand to the shared per-value code of
 * {@link io.quarry.ql.exec.EvalValues}) — and {@code CompiledEvaluatorTest} proves it on random
 * pages. {@link io.quarry.ql.eval.ColumnBlocks} makes a block of an answer, typed as {@code
 * PageBuilder} types a column; {@link io.quarry.ql.eval.Selection} the positions a condition keeps.
 * {@link io.quarry.ql.eval.SearchFilter} does the same for {@code search}'s field comparisons, and
 * for {@code searchmatch()}'s whole search ({@code SearchMatchEvaluator}: its terms matched in the
 * page's {@code _raw} by the evaluator's {@link io.quarry.ql.exec.RawTermMatcher}, at a position
 * without {@code _raw} against its fields' whole values: {@code FieldValueTerm}).
 */
package io.quarry.ql.eval;
