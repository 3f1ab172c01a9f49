package io.quarry.ql.parser;

import java.util.List;

/**
 * A cursor over the tokens of one query, handed to command parsers. Knows the query text so that
 * every error it raises points into it.
 */
public final class TokenReader {
  private static final java.util.Set<TokenType> GLUEABLE =
      java.util.EnumSet.of(
          TokenType.WORD,
          TokenType.EQ,
          TokenType.NE,
          TokenType.LT,
          TokenType.LE,
          TokenType.GT,
          TokenType.GE);

  private final String query;
  private final List<Token> tokens;
  private final java.util.function.Function<String, io.quarry.ql.ast.Query> subqueries;
  private int index;

  public TokenReader(String query) {
    this(query, null);
  }

  /**
   * A reader whose subsearches ({@code [ … ]}) are parsed by {@code subqueries}, given the query
   * text with everything outside the brackets blanked (so positions stay those of this query).
   */
  public TokenReader(
      String query, java.util.function.Function<String, io.quarry.ql.ast.Query> subqueries) {
    this.query = query;
    this.tokens = Lexer.tokenize(query);
    this.subqueries = subqueries;
  }

  /** Parses a subsearch's text (see the constructor); an error when this reader takes none. */
  io.quarry.ql.ast.Query parseSubquery(String padded, Token open) {
    if (subqueries == null) {
      throw error(open, "A subsearch is not allowed here", "a value");
    }
    return subqueries.apply(padded);
  }

  public String query() {
    return query;
  }

  public Token peek() {
    return peek(0);
  }

  public Token peek(int ahead) {
    return tokens.get(Math.min(index + ahead, tokens.size() - 1));
  }

  public Token next() {
    Token token = peek();
    if (token.type() != TokenType.EOF) {
      index++;
    }
    return token;
  }

  public boolean at(TokenType type) {
    return peek().type() == type;
  }

  /** True at {@code |} or the end of the query: the current command has no more arguments. */
  public boolean atCommandEnd() {
    return at(TokenType.PIPE) || at(TokenType.EOF);
  }

  public Token expect(TokenType type, String expected) {
    if (!at(type)) {
      throw unexpected(peek(), expected);
    }
    return next();
  }

  /**
   * Reads a value: a quoted string, or a word together with every token glued to it without
   * whitespace ({@code /cart.do?action=view} is one value although it contains {@code =}).
   */
  public Token readValue(String expected) {
    Token first = peek();
    if (first.type() == TokenType.QUOTED) {
      return next();
    }
    if (first.type() != TokenType.WORD) {
      throw unexpected(first, expected);
    }
    next();
    StringBuilder text = new StringBuilder(first.text());
    int end = first.end();
    while (GLUEABLE.contains(peek().type()) && peek().position().offset() == end) {
      Token glued = next();
      text.append(glued.text());
      end = glued.end();
    }
    return new Token(TokenType.WORD, text.toString(), first.position(), end);
  }

  /** An error at a token: "Unexpected X; expected Y". */
  public QueryParseException unexpected(Token token, String expected) {
    String message =
        token.type() == TokenType.EOF
            ? "Unexpected end of query; expected " + expected
            : "Unexpected " + token.describe() + "; expected " + expected;
    return new QueryParseException(message, query, token.position(), token.text(), expected);
  }

  public QueryParseException error(Token token, String message, String expected) {
    return new QueryParseException(message, query, token.position(), token.text(), expected);
  }
}
