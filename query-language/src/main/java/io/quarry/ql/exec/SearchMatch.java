package io.quarry.ql.exec;

import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.parser.SearchExpressionParser;
import io.quarry.ql.parser.TokenReader;

/**
 * {@code searchmatch("<search>")}: whether a position matches a search as the {@code search}
 * command matches an event (terms in the event's raw text, case-insensitive; field comparisons on
 * its fields): the search parsed here, compiled once per page chain over pages ({@code
 * io.quarry.ql.eval.SearchMatchEvaluator}).
 */
public final class SearchMatch {
  private SearchMatch() {}

  /**
   * The search in {@code text}, or null when it is empty.
   *
   * @throws io.quarry.ql.parser.QueryParseException when it is not a search
   */
  public static SearchExpression parse(String text) {
    return new SearchExpressionParser(new TokenReader(text)).parseCommandExpression().orElse(null);
  }

  /**
   * The fields a search reads besides the raw text: those its comparisons name ({@code _raw} too
   * when it has a bare word or phrase).
   */
  public static java.util.Set<String> fields(SearchExpression search) {
    java.util.Set<String> fields = new java.util.LinkedHashSet<>();
    if (search != null) {
      fields(search, fields);
    }
    return fields;
  }

  private static void fields(SearchExpression search, java.util.Set<String> into) {
    switch (search) {
      case SearchExpression.Term term -> into.add("_raw");
      case SearchExpression.Comparison comparison -> into.add(comparison.field());
      case SearchExpression.In in -> into.add(in.field());
      case SearchExpression.And and -> and.operands().forEach(o -> fields(o, into));
      case SearchExpression.Or or -> or.operands().forEach(o -> fields(o, into));
      case SearchExpression.Not not -> fields(not.operand(), into);
      case SearchExpression.SubsearchTerm sub -> {}
    }
  }
}
