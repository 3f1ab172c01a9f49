package io.quarry.ql.parser;

import io.quarry.ql.ast.Expression;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Parses {@code eval} and {@code where} expressions, with their own lexical rules: {@code "…"} is a
 * string, {@code '…'} a field name, bare names are fields, {@code name(…)} a function call. The
 * precedence is Splunk's for eval, loosest first: {@code OR}, {@code XOR}, {@code AND}, {@code
 * NOT}, equality ({@code = == != LIKE}), relational ({@code < <= > >=}), {@code + - .}, {@code * /
 * %}, unary minus.
 */
public final class ExpressionParser {
  private static final Set<String> KEYWORDS = Set.of("and", "or", "not", "xor", "like", "in");

  private final String query;
  private final int end;
  private int at;
  private int depth;
  private int operators;

  /**
   * Each number literal's text as written, for {@code sigfig} (by identity: 1.0 and 1.00 differ).
   */
  private final java.util.Map<Expression, String> numberTexts = new java.util.IdentityHashMap<>();

  /** Parses {@code query[start, end)}. */
  public ExpressionParser(String query, int start, int end) {
    this.query = query;
    this.at = start;
    this.end = end;
  }

  public boolean atEnd() {
    skipSpace();
    return at >= end;
  }

  /** Whether the next character is {@code c} (after spaces); consumes it if so. */
  public boolean accept(char c) {
    skipSpace();
    if (at < end && query.charAt(at) == c && !(c == '=' && peekIs(1, '='))) {
      at++;
      return true;
    }
    return false;
  }

  /** A field name: a bare name or a {@code '…'} one. */
  public String fieldName(String expected) {
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

  public Expression expression() {
    return or();
  }

  private Expression or() {
    Expression left = xor();
    while (keyword("or")) {
      left = binary("OR", left, xor());
    }
    return left;
  }

  private Expression xor() {
    Expression left = and();
    while (keyword("xor")) {
      left = binary("XOR", left, and());
    }
    return left;
  }

  private Expression and() {
    Expression left = not();
    while (keyword("and")) {
      left = binary("AND", left, not());
    }
    return left;
  }

  private Expression not() {
    int start = at;
    if (keyword("not")) {
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
          at,
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
      skipSpace();
      String operator;
      if (symbol("==")) {
        operator = "=";
      } else if (symbol("!=")) {
        operator = "!=";
      } else if (at < end && query.charAt(at) == '=') {
        at++;
        operator = "=";
      } else if (keyword("like")) {
        operator = "LIKE";
      } else {
        int start = at;
        if (keyword("in")) {
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
    skipSpace();
    if (!accept('(')) {
      throw error(at, "IN needs a parenthesised list of values: x IN (a, b)", "'('");
    }
    enter(start);
    List<Expression> arguments = new ArrayList<>();
    arguments.add(left);
    skipSpace();
    if (accept(')')) {
      throw error(at - 1, "IN needs at least one value in its list", "a value");
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
      skipSpace();
      String operator =
          symbol("<=") ? "<=" : symbol(">=") ? ">=" : symbol("<") ? "<" : symbol(">") ? ">" : null;
      if (operator == null) {
        return left;
      }
      left = binary(operator, left, additive());
    }
  }

  private Expression additive() {
    Expression left = multiplicative();
    while (true) {
      skipSpace();
      String operator = symbol("+") ? "+" : symbol("-") ? "-" : symbol(".") ? "." : null;
      if (operator == null) {
        return left;
      }
      left = binary(operator, left, multiplicative());
    }
  }

  private Expression multiplicative() {
    Expression left = unary();
    while (true) {
      skipSpace();
      String operator = symbol("*") ? "*" : symbol("/") ? "/" : symbol("%") ? "%" : null;
      if (operator == null) {
        return left;
      }
      left = binary(operator, left, unary());
    }
  }

  private Expression unary() {
    skipSpace();
    int start = at;
    if (symbol("-")) {
      enter(start);
      Expression negative = new Expression.Unary("-", unary());
      depth--;
      return negative;
    }
    if (symbol("+")) {
      enter(start);
      Expression positive = unary();
      depth--;
      return positive;
    }
    return primary();
  }

  private Expression primary() {
    skipSpace();
    if (at >= end) {
      throw error(at, "Unexpected end of expression; expected a value", "a value");
    }
    char c = query.charAt(at);
    if (c == '(') {
      enter(at);
      at++;
      Expression inner = expression();
      expect(')');
      depth--;
      return inner;
    }
    if (c == '"') {
      return new Expression.Literal(quoted('"'));
    }
    if (c == '\'') {
      return new Expression.Field(quoted('\''));
    }
    if (Character.isDigit(c)
        || (c == '.' && at + 1 < end && Character.isDigit(query.charAt(at + 1)))) {
      return number();
    }
    if (isNameChar(c)) {
      int start = at;
      String name = fieldName("a field or function name");
      skipSpace();
      boolean call = at < end && query.charAt(at) == '(';
      if (!call && KEYWORDS.contains(name.toLowerCase(Locale.ROOT))) {
        throw error(start, "Unexpected '" + name + "'; expected a value", "a value");
      }
      if (call) {
        enter(start);
        at++;
        List<Expression> arguments = new ArrayList<>();
        skipSpace();
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
              new Expression.Literal(SigFigOperands.written(arguments.get(0), numberTexts)));
        }
        return new Expression.Call(function, arguments, start);
      }
      return new Expression.Field(name);
    }
    throw error(at, "Unexpected '" + c + "'; expected a value", "a value");
  }

  private Expression number() {
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

  private String quoted(char quote) {
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

  public void expect(char c) {
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

  private boolean keyword(String word) {
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

  private boolean symbol(String symbol) {
    if (query.startsWith(symbol, at) && at + symbol.length() <= end) {
      // '.' between digits belongs to a number, handled by number()
      at += symbol.length();
      return true;
    }
    return false;
  }

  private boolean peekIs(int ahead, char c) {
    return at + ahead < end && query.charAt(at + ahead) == c;
  }

  private void skipSpace() {
    while (at < end && Character.isWhitespace(query.charAt(at))) {
      at++;
    }
  }

  private static boolean isNameChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  /** An error at a character offset, with its line and column. */
  public QueryParseException error(int offset, String message, String expected) {
    String token = offset < query.length() ? String.valueOf(query.charAt(offset)) : "";
    return new QueryParseException(message, query, Position.of(query, offset), token, expected);
  }

  /** The current offset (for errors after parsing). */
  public int offset() {
    skipSpace();
    return at;
  }
}
