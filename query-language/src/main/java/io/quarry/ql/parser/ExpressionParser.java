package io.quarry.ql.parser;

import io.quarry.ql.ast.Expression;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Parses {@code eval} and {@code where} expressions, with their own lexical rules ({@link
 * ExpressionCursor}): {@code "…"} is a string, {@code '…'} a field name, bare names are fields,
 * {@code name(…)} a function call. The precedence is Splunk's for eval, loosest first: {@code OR},
 * {@code XOR}, {@code AND}, {@code NOT}, equality ({@code = == != LIKE}), relational ({@code < <= >
 * >=}), {@code + - .}, {@code * / %}, unary minus.
 */
public final class ExpressionParser {
  private static final Set<String> KEYWORDS = Set.of("and", "or", "not", "xor", "like", "in");

  private final ExpressionCursor text;
  private int depth;
  private int operators;

  /** Parses {@code query[start, end)}. */
  public ExpressionParser(String query, int start, int end) {
    this.text = new ExpressionCursor(query, start, end);
  }

  public boolean atEnd() {
    return text.atEnd();
  }

  /** Whether the next character is {@code c} (after spaces); consumes it if so. */
  public boolean accept(char c) {
    return text.accept(c);
  }

  /** A field name: a bare name or a {@code '…'} one. */
  public String fieldName(String expected) {
    return text.fieldName(expected);
  }

  public Expression expression() {
    return or();
  }

  private Expression or() {
    Expression left = xor();
    while (text.keyword("or")) {
      left = binary("OR", left, xor());
    }
    return left;
  }

  private Expression xor() {
    Expression left = and();
    while (text.keyword("xor")) {
      left = binary("XOR", left, and());
    }
    return left;
  }

  private Expression and() {
    Expression left = not();
    while (text.keyword("and")) {
      left = binary("AND", left, not());
    }
    return left;
  }

  private Expression not() {
    int start = text.at();
    if (text.keyword("not")) {
      enter(start);
      Expression negated = new Expression.Unary("NOT", not());
      depth--;
      return negated;
    }
    return equality();
  }

  /**
   * A binary operator node. A chain of them ({@code 1+1+…}) builds a tree as deep as it is long,
   * which every later walk recurses through: more than {@link ParserLimits#MAX_OPERATORS} in one
   * expression is a parse error, not a stack overflow.
   */
  private Expression binary(String operator, Expression left, Expression right) {
    if (++operators > ParserLimits.MAX_OPERATORS) {
      throw error(
          text.at(),
          "The expression has more than " + ParserLimits.MAX_OPERATORS + " operators",
          "at most " + ParserLimits.MAX_OPERATORS + " operators (use IN or in() for long lists)");
    }
    return new Expression.Binary(operator, left, right);
  }

  /**
   * One more level of nesting (a parenthesis, a call, a NOT or a sign); deeper than {@link
   * ParserLimits#MAX_NESTING} is a parse error, not a stack overflow.
   */
  private void enter(int offset) {
    if (++depth > ParserLimits.MAX_NESTING) {
      throw error(
          offset,
          "The expression nests deeper than " + ParserLimits.MAX_NESTING + " levels",
          "at most " + ParserLimits.MAX_NESTING + " nested parentheses, calls or operators");
    }
  }

  private Expression equality() {
    Expression left = relational();
    while (true) {
      text.skipSpace();
      String operator;
      if (text.symbol("==")) {
        operator = "=";
      } else if (text.symbol("!=")) {
        operator = "!=";
      } else if (text.peekIs(0, '=')) {
        text.skip();
        operator = "=";
      } else if (text.keyword("like")) {
        operator = "LIKE";
      } else {
        int start = text.at();
        if (text.keyword("in")) {
          left = in(left, start);
          continue;
        }
        return left;
      }
      left = binary(operator, left, relational());
    }
  }

  /** {@code x IN (a, b, …)}, Splunk's operator form of {@code in(x, a, b, …)}. */
  private Expression in(Expression left, int start) {
    text.skipSpace();
    if (!accept('(')) {
      throw error(text.at(), "IN needs a parenthesised list of values: x IN (a, b)", "'('");
    }
    enter(start);
    List<Expression> arguments = new ArrayList<>();
    arguments.add(left);
    text.skipSpace();
    if (accept(')')) {
      throw error(text.at() - 1, "IN needs at least one value in its list", "a value");
    }
    do {
      arguments.add(expression());
    } while (accept(','));
    expect(')');
    depth--;
    return new Expression.Call("in", arguments, start);
  }

  private Expression relational() {
    Expression left = additive();
    while (true) {
      text.skipSpace();
      String operator =
          text.symbol("<=")
              ? "<="
              : text.symbol(">=") ? ">=" : text.symbol("<") ? "<" : text.symbol(">") ? ">" : null;
      if (operator == null) {
        return left;
      }
      left = binary(operator, left, additive());
    }
  }

  private Expression additive() {
    Expression left = multiplicative();
    while (true) {
      text.skipSpace();
      String operator =
          text.symbol("+") ? "+" : text.symbol("-") ? "-" : text.symbol(".") ? "." : null;
      if (operator == null) {
        return left;
      }
      left = binary(operator, left, multiplicative());
    }
  }

  private Expression multiplicative() {
    Expression left = unary();
    while (true) {
      text.skipSpace();
      String operator =
          text.symbol("*") ? "*" : text.symbol("/") ? "/" : text.symbol("%") ? "%" : null;
      if (operator == null) {
        return left;
      }
      left = binary(operator, left, unary());
    }
  }

  private Expression unary() {
    text.skipSpace();
    int start = text.at();
    if (text.symbol("-")) {
      enter(start);
      Expression negative = new Expression.Unary("-", unary());
      depth--;
      return negative;
    }
    if (text.symbol("+")) {
      enter(start);
      Expression positive = unary();
      depth--;
      return positive;
    }
    return primary();
  }

  private Expression primary() {
    text.skipSpace();
    if (text.atEnd()) {
      throw error(text.at(), "Unexpected end of expression; expected a value", "a value");
    }
    char c = text.peek();
    if (c == '(') {
      enter(text.at());
      text.skip();
      Expression inner = expression();
      expect(')');
      depth--;
      return inner;
    }
    if (c == '"') {
      return new Expression.Literal(text.quoted('"'));
    }
    if (c == '\'') {
      return new Expression.Field(text.quoted('\''));
    }
    if (text.atNumber()) {
      return text.number();
    }
    if (ExpressionCursor.isNameChar(c)) {
      int start = text.at();
      String name = fieldName("a field or function name");
      text.skipSpace();
      boolean call = text.peekIs(0, '(');
      if (!call && KEYWORDS.contains(name.toLowerCase(Locale.ROOT))) {
        throw error(start, "Unexpected '" + name + "'; expected a value", "a value");
      }
      if (call) {
        enter(start);
        text.skip();
        List<Expression> arguments = new ArrayList<>();
        text.skipSpace();
        if (!accept(')')) {
          do {
            arguments.add(expression());
          } while (accept(','));
          expect(')');
        }
        depth--;
        String function = name.toLowerCase(Locale.ROOT);
        if (function.equals("sigfig") && arguments.size() == 1) {
          arguments.add(
              new Expression.Literal(SigFigOperands.written(arguments.get(0), text.numberTexts())));
        }
        return new Expression.Call(function, arguments, start);
      }
      return new Expression.Field(name);
    }
    throw error(text.at(), "Unexpected '" + c + "'; expected a value", "a value");
  }

  public void expect(char c) {
    text.expect(c);
  }

  /** An error at a character offset, with its line and column. */
  public QueryParseException error(int offset, String message, String expected) {
    return text.error(offset, message, expected);
  }

  /** The current offset (for errors after parsing). */
  public int offset() {
    return text.offset();
  }
}
