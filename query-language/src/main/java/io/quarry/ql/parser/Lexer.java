package io.quarry.ql.parser;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits SPL text into tokens. Words run until whitespace or one of {@code | ( ) [ ] , = < > "};
 * {@code !} breaks a word only when it starts {@code !=}. Text between triple backticks is a
 * comment. Quoted strings take backslash escapes for {@code "} and {@code \}.
 */
public final class Lexer {
  private final String query;
  private int offset;
  private int line = 1;
  private int lineStart;

  private Lexer(String query) {
    this.query = query;
  }

  public static List<Token> tokenize(String query) {
    return new Lexer(query).run();
  }

  private List<Token> run() {
    List<Token> tokens = new ArrayList<>();
    while (true) {
      skipWhitespaceAndComments();
      if (offset >= query.length()) {
        tokens.add(new Token(TokenType.EOF, "", position(), offset));
        return tokens;
      }
      tokens.add(next());
    }
  }

  private Position position() {
    return new Position(offset, line, offset - lineStart + 1);
  }

  private void skipWhitespaceAndComments() {
    while (offset < query.length()) {
      char c = query.charAt(offset);
      if (c == '\n') {
        offset++;
        line++;
        lineStart = offset;
      } else if (Character.isWhitespace(c)) {
        offset++;
      } else if (query.startsWith("```", offset)) {
        Position start = position();
        int close = query.indexOf("```", offset + 3);
        if (close < 0) {
          throw new QueryParseException(
              "Unterminated comment", query, start, "```", "a closing ``` for the comment");
        }
        advanceTo(close + 3);
      } else {
        return;
      }
    }
  }

  private void advanceTo(int target) {
    while (offset < target) {
      if (query.charAt(offset++) == '\n') {
        line++;
        lineStart = offset;
      }
    }
  }

  private Token next() {
    Position start = position();
    char c = query.charAt(offset);
    TokenType single =
        switch (c) {
          case '|' -> TokenType.PIPE;
          case '(' -> TokenType.LPAREN;
          case ')' -> TokenType.RPAREN;
          case '[' -> TokenType.LBRACKET;
          case ']' -> TokenType.RBRACKET;
          case ',' -> TokenType.COMMA;
          default -> null;
        };
    if (single != null) {
      offset++;
      return new Token(single, String.valueOf(c), start, offset);
    }
    if (c == '"') {
      return quoted(start);
    }
    if (c == '=' || c == '<' || c == '>' || (c == '!' && peek(1) == '=')) {
      return operator(start, c);
    }
    int begin = offset;
    while (offset < query.length() && !isWordBreak(offset)) {
      offset++;
    }
    return new Token(TokenType.WORD, query.substring(begin, offset), start, offset);
  }

  private Token operator(Position start, char c) {
    boolean followedByEquals = peek(1) == '=';
    TokenType type =
        switch (c) {
          case '=' -> TokenType.EQ;
          case '!' -> TokenType.NE;
          case '<' -> followedByEquals ? TokenType.LE : TokenType.LT;
          default -> followedByEquals ? TokenType.GE : TokenType.GT;
        };
    int length = (c == '!' || followedByEquals) ? 2 : 1;
    String text = query.substring(offset, offset + length);
    offset += length;
    return new Token(type, text, start, offset);
  }

  private Token quoted(Position start) {
    StringBuilder value = new StringBuilder();
    offset++;
    while (offset < query.length()) {
      char c = query.charAt(offset);
      if (c == '\\' && offset + 1 < query.length()) {
        char escaped = query.charAt(offset + 1);
        if (escaped == '"' || escaped == '\\') {
          value.append(escaped);
          offset += 2;
          continue;
        }
      }
      if (c == '"') {
        offset++;
        return new Token(TokenType.QUOTED, value.toString(), start, offset);
      }
      if (c == '\n') {
        line++;
        lineStart = offset + 1;
      }
      value.append(c);
      offset++;
    }
    throw new QueryParseException(
        "Unterminated quoted string", query, start, "\"" + value, "a closing '\"'");
  }

  private char peek(int ahead) {
    int at = offset + ahead;
    return at < query.length() ? query.charAt(at) : '\0';
  }

  private boolean isWordBreak(int at) {
    char c = query.charAt(at);
    return switch (c) {
      case '|', '(', ')', '[', ']', ',', '=', '<', '>', '"' -> true;
      case '!' -> at + 1 < query.length() && query.charAt(at + 1) == '=';
      default -> Character.isWhitespace(c);
    };
  }
}
