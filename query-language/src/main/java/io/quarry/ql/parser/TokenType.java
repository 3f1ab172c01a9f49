package io.quarry.ql.parser;

/** Kinds of lexical token in SPL. */
public enum TokenType {
  WORD("a word"),
  QUOTED("a quoted string"),
  PIPE("'|'"),
  LPAREN("'('"),
  RPAREN("')'"),
  LBRACKET("'['"),
  RBRACKET("']'"),
  COMMA("','"),
  EQ("'='"),
  NE("'!='"),
  LT("'<'"),
  LE("'<='"),
  GT("'>'"),
  GE("'>='"),
  EOF("the end of the query");

  private final String description;

  TokenType(String description) {
    this.description = description;
  }

  public String description() {
    return description;
  }
}
