package io.quarry.ql.parser;

import io.quarry.ql.ast.Expression;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * An {@code eval}/{@code where} expression written back as SPL, for {@link SplText}: parenthesised
 * by eval's precedence (loosest first {@code OR}, {@code XOR}, {@code AND}, {@code NOT}, equality,
 * relational, {@code + - .}, {@code * / %}, unary minus; binary operators are left-associative),
 * field names bare only when they read back as one, literals so they parse to the same value, a
 * {@code sigfig} call with its operands' numbers as the query wrote them.
 */
final class EvalText {
  private EvalText() {}

  private static final int OR = 1;
  private static final int XOR = 2;
  private static final int AND = 3;
  private static final int NOT = 4;
  private static final int EQUALITY = 5;
  private static final int RELATIONAL = 6;
  private static final int ADDITIVE = 7;
  private static final int MULTIPLICATIVE = 8;
  private static final int UNARY = 9;
  private static final int PRIMARY = 10;

  private static final Set<String> EVAL_KEYWORDS = Set.of("and", "or", "not", "xor", "like");

  /** An {@code eval}/{@code where} expression, as {@code ExpressionParser} reads it. */
  static String eval(Expression expression) {
    return switch (expression) {
      case Expression.Literal literal -> {
        java.util.Map<Expression, String> written = WRITTEN_NUMBERS.get();
        yield written.containsKey(literal) ? written.get(literal) : literal(literal.value());
      }
      case Expression.Field field -> field(field.name());
      case Expression.Call call -> {
        String sigfig = sigfig(call);
        yield sigfig != null
            ? sigfig
            : call.function()
                + "("
                + call.arguments().stream().map(EvalText::eval).collect(Collectors.joining(", "))
                + ")";
      }
      case Expression.Unary unary -> {
        boolean not = unary.operator().equals("NOT");
        int level = not ? NOT : UNARY;
        String operand = operand(unary.operand(), level(unary.operand()) < level);
        yield not ? "NOT " + operand : unary.operator() + operand;
      }
      case Expression.Binary binary -> {
        int level = level(binary);
        yield operand(binary.left(), level(binary.left()) < level)
            + " "
            + binary.operator()
            + " "
            + operand(binary.right(), level(binary.right()) <= level);
      }
    };
  }

  /**
   * Number literals written as the query wrote them, while a {@code sigfig} argument is written.
   */
  private static final ThreadLocal<java.util.Map<Expression, String>> WRITTEN_NUMBERS =
      ThreadLocal.withInitial(java.util.IdentityHashMap::new);

  /**
   * {@code sigfig(x)} as written: its hidden second argument (the operands' written numbers, {@link
   * SigFigOperands}) put back into the numbers of {@code x}, so parsing the text gives the same
   * call; null when the call does not have that form.
   */
  private static String sigfig(Expression.Call call) {
    if (!call.function().equals("sigfig")
        || call.arguments().size() != 2
        || !(call.arguments().get(1) instanceof Expression.Literal(String hidden))) {
      return null;
    }
    List<Expression> operands = SigFigOperands.operands(call.arguments().get(0));
    String[] texts = hidden.split(java.util.regex.Pattern.quote(SigFigOperands.SEPARATOR), -1);
    if (texts.length != operands.size()) {
      return null;
    }
    java.util.Map<Expression, String> written = new java.util.IdentityHashMap<>();
    for (int i = 0; i < texts.length; i++) {
      Expression operand = operands.get(i);
      if (operand instanceof Expression.Unary unary && unary.operator().equals("-")) {
        operand = unary.operand();
      }
      boolean number =
          operand instanceof Expression.Literal(Object value) && value instanceof Number;
      if (texts[i].isEmpty() != !number) {
        return null;
      }
      if (number) {
        try {
          double value = ((Number) ((Expression.Literal) operand).value()).doubleValue();
          if (Double.parseDouble(texts[i]) != value) {
            return null;
          }
        } catch (NumberFormatException notANumber) {
          return null;
        }
        written.put(operand, texts[i]);
      }
    }
    java.util.Map<Expression, String> outer = WRITTEN_NUMBERS.get();
    java.util.Map<Expression, String> merged = new java.util.IdentityHashMap<>(outer);
    merged.putAll(written);
    WRITTEN_NUMBERS.set(merged);
    try {
      return "sigfig(" + eval(call.arguments().get(0)) + ")";
    } finally {
      WRITTEN_NUMBERS.set(outer);
    }
  }

  private static String operand(Expression expression, boolean parenthesise) {
    return parenthesise ? "(" + eval(expression) + ")" : eval(expression);
  }

  private static int level(Expression expression) {
    return switch (expression) {
      case Expression.Binary binary ->
          switch (binary.operator()) {
            case "OR" -> OR;
            case "XOR" -> XOR;
            case "AND" -> AND;
            case "=", "==", "!=", "LIKE" -> EQUALITY;
            case "<", "<=", ">", ">=" -> RELATIONAL;
            case "+", "-", "." -> ADDITIVE;
            case "*", "/", "%" -> MULTIPLICATIVE;
            default -> throw new IllegalArgumentException("unknown operator " + binary.operator());
          };
      case Expression.Unary unary -> unary.operator().equals("NOT") ? NOT : UNARY;
      default -> PRIMARY;
    };
  }

  private static String literal(Object value) {
    return switch (value) {
      case null -> "null()";
      case String text -> SplText.quote(text, '"');
      case Boolean bool -> bool + "()";
      // 1e999 reads as infinity, as it was written (the parser makes no negative or NaN literal)
      case Double number when number == Double.POSITIVE_INFINITY -> "1e999";
      case Double number -> Double.toString(number); // keeps a '.' or an exponent: a double again
      default -> value.toString();
    };
  }

  /** A field name in eval: bare when it reads back as one, else in single quotes. */
  static String field(String name) {
    boolean bare =
        !name.isEmpty()
            && !Character.isDigit(name.charAt(0))
            && name.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_')
            && !EVAL_KEYWORDS.contains(name.toLowerCase(Locale.ROOT));
    return bare ? name : SplText.quote(name, '\'');
  }
}
