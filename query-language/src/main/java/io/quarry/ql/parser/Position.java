package io.quarry.ql.parser;

/** A place in the query text: 0-based character offset, 1-based line and column. */
public record Position(int offset, int line, int column) {
  public static final Position START = new Position(0, 1, 1);

  /** The position of character {@code offset} of {@code text}, its line and column counted. */
  public static Position of(String text, int offset) {
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < offset && i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return new Position(offset, line, offset - lineStart + 1);
  }
}
