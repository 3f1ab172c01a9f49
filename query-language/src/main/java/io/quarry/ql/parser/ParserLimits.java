package io.quarry.ql.parser;

/**
 * Bounds on what the parsers accept, so that hostile query text is a parse error (400) and never a
 * stack overflow: the parsers descend recursively, one level per parenthesis, call, {@code NOT} or
 * sign.
 */
public final class ParserLimits {
  /**
   * Nesting levels a search expression or an eval expression may have. Real searches nest a few
   * levels; 100 is far beyond them and far below what a search thread's stack holds, through the
   * parser and every later walk over the tree (planning, translation, evaluation).
   */
  public static final int MAX_NESTING = 100;

  /**
   * Binary operators one eval or where expression may have: a chain of them is a tree as deep as it
   * is long.
   */
  public static final int MAX_OPERATORS = 1_000;

  private ParserLimits() {}
}
