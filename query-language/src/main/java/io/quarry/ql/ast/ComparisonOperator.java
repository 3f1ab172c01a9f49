package io.quarry.ql.ast;

/** Comparison operators of the search expression. */
public enum ComparisonOperator {
  EQ("="),
  NE("!="),
  LT("<"),
  LE("<="),
  GT(">"),
  GE(">=");

  private final String symbol;

  ComparisonOperator(String symbol) {
    this.symbol = symbol;
  }

  public String symbol() {
    return symbol;
  }
}
