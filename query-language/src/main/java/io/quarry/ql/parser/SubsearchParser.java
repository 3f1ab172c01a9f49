package io.quarry.ql.parser;

import io.quarry.ql.ast.Query;
import io.quarry.ql.ast.Subsearch;

/**
 * Reads a subsearch {@code [ … ]}: up to the matching {@code ]} (brackets nest; a {@code ]} inside
 * a quoted string or a comment is text), its inside parsed as a whole query by the reader's parser.
 */
public final class SubsearchParser {
  private SubsearchParser() {}

  /** True at a {@code [}. */
  public static boolean at(TokenReader reader) {
    return reader.at(TokenType.LBRACKET);
  }

  /** Reads the subsearch starting at the current {@code [}. */
  public static Subsearch read(TokenReader reader) {
    Token open = reader.expect(TokenType.LBRACKET, "'[' to start a subsearch");
    int depth = 1;
    Token close;
    while (true) {
      Token token = reader.next();
      if (token.type() == TokenType.EOF) {
        throw reader.error(
            open, "Unterminated subsearch: '[' has no matching ']'", "a ']' to end the subsearch");
      }
      if (token.type() == TokenType.LBRACKET) {
        depth++;
      } else if (token.type() == TokenType.RBRACKET && --depth == 0) {
        close = token;
        break;
      }
    }
    String query = reader.query();
    int from = open.end();
    int to = close.position().offset();
    String text = query.substring(from, to).strip();
    if (text.isEmpty()) {
      throw reader.error(close, "A subsearch needs a search between '[' and ']'", "a search");
    }
    Query inner;
    try {
      inner = reader.parseSubquery(padded(query, from, to), open);
    } catch (QueryParseException e) {
      if (query.equals(e.query())) {
        throw e;
      }
      // the positions are this query's: show the error in it
      throw new QueryParseException(e.getMessage(), query, e.position(), e.token(), e.expected());
    }
    return new Subsearch(inner, text, open.position().offset(), close.end(), open.position());
  }

  /** The query with every character outside {@code [from, to)} a space (line ends kept). */
  static String padded(String query, int from, int to) {
    StringBuilder text = new StringBuilder(query.length());
    for (int i = 0; i < query.length(); i++) {
      char c = query.charAt(i);
      text.append(i >= from && i < to || c == '\n' ? c : ' ');
    }
    return text.toString();
  }
}
