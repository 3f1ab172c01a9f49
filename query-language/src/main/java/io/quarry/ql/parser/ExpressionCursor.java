package io.quarry.ql.parser;

import io.quarry.ql.ast.Expression;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The lexical side of {@link ExpressionParser}: a cursor over {@code query[start, end)} and the
 * tokens of an eval expression read at it — spaces, symbols, keywords (any case, whole words),
 * names, {@code "…"} strings and {@code '…'} field names (with {@code \"} and {@code \\} escapes
 * only), numbers — and errors placed at an offset.
 */
final class ExpressionCursor {
  private final String query;
  private final int end;
  private int at;

  /**
   * Each number literal's text as written, for {@code sigfig} (by identity: 1.0 and 1.00 differ).
   */
  private final Map<Expression, String> numberTexts = new IdentityHashMap<>();

  ExpressionCursor(String query, int start, int end) {
    this.query = query;
    this.at = start;
    this.end = end;
  }

  /** The cursor's offset in the query. */
  int at() {
    return at;
  }

  /** The character at the cursor (not at the end). */
  char peek() {
    return query.charAt(at);
  }

  /** Moves past the character at the cursor. */
  void skip() {
    at++;
  }

  /** Whether a number starts at the cursor: a digit, or a dot before one. */
  boolean atNumber() {
    char c = query.charAt(at);
    return Character.isDigit(c)
        || (c == '.' && at + 1 < end && Character.isDigit(query.charAt(at + 1)));
  }

  /** The text of each number literal read, by literal. */
  Map<Expression, String> numberTexts() {
    return numberTexts;
  }

  boolean atEnd() {
    skipSpace();
    return at >= end;
  }

  /** Whether the next character is {@code c} (after spaces); consumes it if so. */
  boolean accept(char c) {
    skipSpace();
    if (at < end && query.charAt(at) == c && !(c == '=' && peekIs(1, '='))) {
      at++;
      return true;
    }
    return false;
  }

  /** A field name: a bare name or a {@code '…'} one. */
  String fieldName(String expected) {
    skipSpace();
    int start = at;
    if (at < end && query.charAt(at) == '\'') {
      return quoted('\'');
    }
    if (at < end && !Character.isDigit(query.charAt(at))) {
      while (at < end && isNameChar(query.charAt(at))) {
        at++;
      }
    }
    if (at == start) {
      throw error(start, "Expected " + expected, expected);
    }
    return query.substring(start, at);
  }

  /** A number literal at the cursor, its text kept for {@link #numberTexts}. */
  Expression.Literal number() {
    int start = at;
    while (at < end && (Character.isDigit(query.charAt(at)) || query.charAt(at) == '.')) {
      at++;
    }
    if (at < end && (query.charAt(at) == 'e' || query.charAt(at) == 'E')) {
      int mark = at++;
      if (at < end && (query.charAt(at) == '-' || query.charAt(at) == '+')) {
        at++;
      }
      if (at < end && Character.isDigit(query.charAt(at))) {
        while (at < end && Character.isDigit(query.charAt(at))) {
          at++;
        }
      } else {
        at = mark;
      }
    }
    String text = query.substring(start, at);
    try {
      Expression.Literal literal =
          text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0
              ? new Expression.Literal(Long.parseLong(text))
              : new Expression.Literal(Double.parseDouble(text));
      numberTexts.put(literal, text);
      return literal;
    } catch (NumberFormatException e) {
      throw error(start, "'" + text + "' is not a number", "a number");
    }
  }

  /** A {@code "…"} string or {@code '…'} field name at the cursor, without its quotes. */
  String quoted(char quote) {
    int start = at++;
    StringBuilder text = new StringBuilder();
    while (at < end) {
      char c = query.charAt(at++);
      if (c == '\\' && at < end && (query.charAt(at) == quote || query.charAt(at) == '\\')) {
        text.append(query.charAt(at++)); // \" and \\ only, as in search: regexes keep \d
      } else if (c == quote) {
        return text.toString();
      } else {
        text.append(c);
      }
    }
    throw error(
        start, "Unterminated " + (quote == '"' ? "string" : "field name"), "a closing " + quote);
  }

  void expect(char c) {
    if (!accept(c)) {
      skipSpace();
      throw error(
          at,
          at >= end
              ? "Unexpected end of expression; expected '" + c + "'"
              : "Unexpected '" + query.charAt(at) + "'; expected '" + c + "'",
          "'" + c + "'");
    }
  }

  /** Whether the keyword {@code word} (any case, a whole word) is next; consumes it if so. */
  boolean keyword(String word) {
    skipSpace();
    int length = word.length();
    if (at + length <= end
        && query.regionMatches(true, at, word, 0, length)
        && (at + length == end || !isNameChar(query.charAt(at + length)))) {
      at += length;
      return true;
    }
    return false;
  }

  /** Whether {@code symbol} is next (no spaces skipped); consumes it if so. */
  boolean symbol(String symbol) {
    if (query.startsWith(symbol, at) && at + symbol.length() <= end) {
      // '.' between digits belongs to a number, handled by number()
      at += symbol.length();
      return true;
    }
    return false;
  }

  /** Whether the character {@code ahead} of the cursor is {@code c}. */
  boolean peekIs(int ahead, char c) {
    return at + ahead < end && query.charAt(at + ahead) == c;
  }

  void skipSpace() {
    while (at < end && Character.isWhitespace(query.charAt(at))) {
      at++;
    }
  }

  static boolean isNameChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  /** An error at a character offset, with its line and column. */
  QueryParseException error(int offset, String message, String expected) {
    String token = offset < query.length() ? String.valueOf(query.charAt(offset)) : "";
    return new QueryParseException(message, query, Position.of(query, offset), token, expected);
  }

  /** The current offset (for errors after parsing). */
  int offset() {
    skipSpace();
    return at;
  }
}
