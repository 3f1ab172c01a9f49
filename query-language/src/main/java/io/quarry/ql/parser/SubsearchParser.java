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

  /**
   * Reads {@code [ <command> | … ]} at the current {@code [}: a pipeline of commands over results
   * handed to it ({@code appendpipe [stats count]}), parsed by the reader's parser as if it
   * followed {@code * |}, positions those of this query. The answer's first command is that {@code
   * *}.
   */
  public static Query readPipeline(TokenReader reader) {
    Token open = reader.peek();
    int depth = 0;
    int index = 0;
    Token close;
    while (true) {
      Token token = reader.peek(index++);
      if (token.type() == TokenType.EOF) {
        throw reader.error(
            open, "Unterminated pipeline: '[' has no matching ']'", "a ']' to end the pipeline");
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
    if (query.substring(from, to).isBlank()) {
      throw reader.error(close, "A pipeline needs a command between '[' and ']'", "a command");
    }
    char[] padded = padded(query, from, to).toCharArray();
    padded[open.position().offset()] = '|';
    int star = open.position().offset() - 1;
    while (star >= 0 && padded[star] == '\n') {
      star--;
    }
    if (star < 0) {
      throw reader.error(open, "A pipeline in '[ ]' must follow a command", "a command before '['");
    }
    padded[star] = '*';
    Query inner;
    try {
      inner = reader.parseSubquery(new String(padded), open);
    } catch (QueryParseException e) {
      if (query.equals(e.query())) {
        throw e;
      }
      throw new QueryParseException(e.getMessage(), query, e.position(), e.token(), e.expected());
    }
    for (int i = 0; i < index; i++) {
      reader.next();
    }
    return inner;
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
