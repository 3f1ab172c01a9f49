package io.quarry.ql.parser;

/**
 * One lexical token. {@code text} is the value (unescaped for quoted strings); {@code end} is the
 * offset just past the token in the query, used to glue adjacent tokens such as {@code a=b=c}.
 */
public record Token(TokenType type, String text, Position position, int end) {

  public boolean isWord(String keyword) {
    return type == TokenType.WORD && text.equalsIgnoreCase(keyword);
  }

  /** How the token reads in an error message. */
  public String describe() {
    return switch (type) {
      case EOF -> type.description();
      case QUOTED -> "\"" + text + "\"";
      default -> "'" + text + "'";
    };
  }
}
