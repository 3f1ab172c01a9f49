package io.quarry.ql.exec;

/**
 * How a bare word or phrase of a search matches an event's raw text, as the {@code search} command
 * matches it (the server's index tokenizer decides what a term is: {@code
 * io.quarry.server.search.RawTerms}). Given to the {@link Evaluator} by the server, so that {@code
 * searchmatch()} over a page's {@code _raw} column ({@code io.quarry.ql.eval.SearchFilter}) answers
 * as it does over an event row.
 */
@FunctionalInterface
public interface RawTermMatcher {
  /** Whether {@code term} occurs in {@code raw}. */
  boolean matches(String raw, SearchTerm term);
}
