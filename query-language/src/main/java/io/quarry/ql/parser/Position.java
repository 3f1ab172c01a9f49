package io.quarry.ql.parser;

/** A place in the query text: 0-based character offset, 1-based line and column. */
public record Position(int offset, int line, int column) {
  public static final Position START = new Position(0, 1, 1);
}
