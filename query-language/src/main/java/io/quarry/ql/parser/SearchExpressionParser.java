package io.quarry.ql.parser;

import io.quarry.ql.ast.ComparisonOperator;
import io.quarry.ql.ast.SearchExpression;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Parses the search expression with Splunk's precedence for {@code search}: {@code NOT} binds
 * tightest, then {@code OR}, then the (implicit or explicit) {@code AND}. So {@code a b OR c} is
 * {@code a AND (b OR c)}. The keywords are upper case; lower-case {@code or} is a term.
 */
public final class SearchExpressionParser {
  private static final String TERM = "a search term, a field comparison or '('";

  private final TokenReader reader;
  private int depth;

  public SearchExpressionParser(TokenReader reader) {
    this.reader = reader;
  }

  /** Parses up to the end of the command; empty when the command has no expression at all. */
  public Optional<SearchExpression> parseCommandExpression() {
    if (reader.atCommandEnd()) {
      return Optional.empty();
    }
    SearchExpression expression = and();
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "'|' or the end of the query");
    }
    return Optional.of(expression);
  }

  private SearchExpression and() {
    List<SearchExpression> operands = new ArrayList<>();
    while (!reader.atCommandEnd() && !reader.at(TokenType.RPAREN)) {
      if (isKeyword(reader.peek(), "AND")) {
        Token and = reader.next();
        if (operands.isEmpty()) {
          throw reader.error(and, "AND needs a search term before it", TERM);
        }
      }
      operands.add(or());
    }
    if (operands.isEmpty()) {
      throw reader.unexpected(reader.peek(), TERM);
    }
    return operands.size() == 1 ? operands.get(0) : new SearchExpression.And(operands);
  }

  private SearchExpression or() {
    List<SearchExpression> operands = new ArrayList<>();
    operands.add(not());
    while (isKeyword(reader.peek(), "OR")) {
      reader.next();
      operands.add(not());
    }
    return operands.size() == 1 ? operands.get(0) : new SearchExpression.Or(operands);
  }

  private SearchExpression not() {
    Token token = reader.peek();
    if (isKeyword(token, "NOT")
        && reader.peek(1).type() == TokenType.LPAREN
        && reader.peek(2).type() == TokenType.RPAREN) {
      // Splunk's "NOT()": what format answers for no rows, a search matching nothing
      reader.next();
      reader.next();
      reader.next();
      return new SearchExpression.Or(List.of());
    }
    if (isKeyword(token, "NOT")) {
      reader.next();
      enter(token);
      SearchExpression negated = new SearchExpression.Not(not());
      depth--;
      return negated;
    }
    return primary();
  }

  /**
   * One more level of nesting ({@code (} or {@code NOT}); deeper than {@link
   * ParserLimits#MAX_NESTING} is a parse error, not a stack overflow.
   */
  private void enter(Token token) {
    if (++depth > ParserLimits.MAX_NESTING) {
      throw reader.error(
          token,
          "The search nests deeper than " + ParserLimits.MAX_NESTING + " levels",
          "at most " + ParserLimits.MAX_NESTING + " nested parentheses or NOTs");
    }
  }

  private SearchExpression primary() {
    Token token = reader.peek();
    switch (token.type()) {
      case LPAREN -> {
        reader.next();
        enter(token);
        SearchExpression inner = and();
        reader.expect(
            TokenType.RPAREN, "')' to close the '(' at column " + token.position().column());
        depth--;
        return inner;
      }
      case LBRACKET -> {
        return new SearchExpression.SubsearchTerm(SubsearchParser.read(reader));
      }
      case QUOTED -> {
        reader.next();
        return new SearchExpression.Term(token.text(), true, token.position());
      }
      case WORD -> {
        if (isKeyword(token, "AND") || isKeyword(token, "OR")) {
          throw reader.error(token, token.text() + " needs a search term before it", TERM);
        }
        Token after = reader.peek(1);
        if ((isKeyword(token, "TERM") || isKeyword(token, "CASE"))
            && after.type() == TokenType.LPAREN
            && after.position().offset() == token.end()) {
          return directive(token);
        }
        return wordOrComparison();
      }
      default -> throw reader.unexpected(token, TERM);
    }
  }

  /**
   * {@code TERM(x)} or {@code CASE(x)}: the text between the parentheses, as written, is one word
   * ({@link SearchExpression.Directive}).
   */
  private SearchExpression directive(Token name) {
    reader.next();
    Token open = reader.next();
    Token close = open;
    while (!reader.at(TokenType.RPAREN)) {
      Token inside = reader.next();
      if (inside.type() == TokenType.EOF || inside.type() == TokenType.PIPE) {
        throw reader.error(
            inside, "'" + name.text() + "(' needs its closing ')'", "')' after the word");
      }
    }
    close = reader.next();
    String text = reader.query().substring(open.end(), close.position().offset()).strip();
    if (text.isEmpty()) {
      throw reader.error(close, name.text() + "() needs a word inside", "a word");
    }
    return new SearchExpression.Term(
        text,
        false,
        name.text().equals("TERM")
            ? SearchExpression.Directive.TERM
            : SearchExpression.Directive.CASE,
        name.position());
  }

  private SearchExpression wordOrComparison() {
    Token next = reader.peek(1);
    Optional<ComparisonOperator> operator = operator(next.type());
    if (operator.isPresent() && reader.peek(2).type() == TokenType.LBRACKET) {
      // field=[ subsearch ]: the subsearch's text (return $x) becomes the value when it is
      // expanded, which is done on the query's text; the comparison exists only after that
      reader.next();
      reader.next();
      return new SearchExpression.SubsearchTerm(SubsearchParser.read(reader));
    }
    if (operator.isPresent()) {
      Token field = reader.next();
      reader.next();
      Token value = reader.readValue("a value after '" + field.text() + next.text() + "'");
      return new SearchExpression.Comparison(
          field.text(),
          operator.get(),
          value.text(),
          value.type() == TokenType.QUOTED,
          field.position());
    }
    if (isKeyword(next, "IN") && reader.peek(2).type() == TokenType.LPAREN) {
      Token field = reader.next();
      reader.next();
      reader.next();
      List<String> values = new ArrayList<>();
      while (true) {
        values.add(reader.readValue("a value in the IN list").text());
        if (reader.at(TokenType.COMMA)) {
          reader.next();
        } else if (reader.at(TokenType.RPAREN)) {
          reader.next();
          return new SearchExpression.In(field.text(), values, field.position());
        } else if (!reader.at(TokenType.WORD) && !reader.at(TokenType.QUOTED)) {
          throw reader.unexpected(reader.peek(), "',' or ')' in the IN list");
        }
      }
    }
    Token word = reader.readValue(TERM);
    return new SearchExpression.Term(word.text(), false, word.position());
  }

  private static boolean isKeyword(Token token, String keyword) {
    return token.type() == TokenType.WORD && token.text().equals(keyword);
  }

  private static Optional<ComparisonOperator> operator(TokenType type) {
    return Optional.ofNullable(
        switch (type) {
          case EQ -> ComparisonOperator.EQ;
          case NE -> ComparisonOperator.NE;
          case LT -> ComparisonOperator.LT;
          case LE -> ComparisonOperator.LE;
          case GT -> ComparisonOperator.GT;
          case GE -> ComparisonOperator.GE;
          default -> null;
        });
  }
}
