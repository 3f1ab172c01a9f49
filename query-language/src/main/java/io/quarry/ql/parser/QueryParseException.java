package io.quarry.ql.parser;

import static java.util.Objects.requireNonNull;

/**
 * A query that cannot be parsed or analyzed. Carries where (line, column, offset), the offending
 * token text and what was expected, and renders the query with a caret under the problem.
 */
public class QueryParseException extends RuntimeException {
  private final String query;
  private final Position position;
  private final String token;
  private final String expected;

  public QueryParseException(
      String message, String query, Position position, String token, String expected) {
    super(requireNonNull(message, "message is null"));
    this.query = requireNonNull(query, "query is null");
    this.position = requireNonNull(position, "position is null");
    this.token = token;
    this.expected = expected;
  }

  public Position position() {
    return position;
  }

  /** The offending token as written, or null when the problem is not one token. */
  public String token() {
    return token;
  }

  /** What the parser expected instead, or null. */
  public String expected() {
    return expected;
  }

  public String query() {
    return query;
  }

  /** The message, then the query line in question with a caret under the column. */
  public String render() {
    String[] lines = query.split("\n", -1);
    String line = position.line() - 1 < lines.length ? lines[position.line() - 1] : "";
    return "line "
        + position.line()
        + ", column "
        + position.column()
        + ": "
        + getMessage()
        + "\n"
        + line
        + "\n"
        + " ".repeat(Math.max(0, position.column() - 1))
        + "^";
  }
}
