package io.quarry.ql.eval;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.Expression;
import io.quarry.ql.exec.Evaluator;
import java.util.ArrayList;
import java.util.List;

/**
 * Compiles an {@code eval}/{@code where} expression once per driver (a page chain: a segment slice
 * on one thread) into an {@link ExpressionEvaluator} tree over whole pages: a fast node for field
 * references, literals, {@code + - * / % .}, comparisons, {@code AND OR XOR NOT LIKE}, unary minus,
 * {@code isnull}, {@code isnotnull}, {@code len}, {@code lower}, {@code upper}, {@code
 * tostring(x)}, {@code tonumber(x)}; the conditionals ({@code if}, {@code case}, {@code coalesce},
 * {@code AND}/{@code OR}) evaluating a part only at the positions {@code Evaluator} evaluates it
 * ({@link Lazily}); {@code searchmatch} as a compiled search over the page ({@link
 * SearchMatchEvaluator}), {@code mvfilter}/{@code mvmap} as their expression over all the values of
 * a page at once ({@link MultivalueEvaluator}), {@code sigfig} over its compiled argument and
 * operands ({@link SigFigEvaluator}); a function whose arguments are literals but one bound to them
 * once and applied per distinct value of that one ({@link BoundCallEvaluator}); every other
 * function applied at each position to its compiled arguments' values ({@link CallEvaluator}:
 * {@link Evaluator#apply}). Every expression compiles, no node walks an expression tree per row,
 * and each answers as {@code Evaluator} does.
 */
public final class ExpressionCompiler {
  private final Evaluator evaluator;

  /** A compiler whose fallbacks use {@code evaluator} (the search's: time, zone, regex stops). */
  public ExpressionCompiler(Evaluator evaluator) {
    this.evaluator = requireNonNull(evaluator, "evaluator is null");
  }

  /** {@code expression} over a page alone. */
  public ExpressionEvaluator compile(Expression expression) {
    return compile(expression, List.of());
  }

  /**
   * {@code expression} over a page and the fields an {@code eval} assigned before it: a field named
   * {@code assigned.get(i)} is read from the {@link Frame}'s slot {@code i}, not from the page.
   */
  public ExpressionEvaluator compile(Expression expression, List<String> assigned) {
    return new Scope(List.copyOf(assigned)).compile(expression);
  }

  /** The compilation of one expression, with the assignments it sees. */
  private final class Scope {
    private final List<String> assigned;

    Scope(List<String> assigned) {
      this.assigned = assigned;
    }

    ExpressionEvaluator compile(Expression expression) {
      return switch (expression) {
        case Expression.Literal literal -> new LiteralEvaluator(literal.value());
        case Expression.Field field -> {
          int slot = assigned.lastIndexOf(field.name());
          yield slot >= 0
              ? FieldEvaluator.ofAssigned(field.name(), slot)
              : FieldEvaluator.ofPage(field.name());
        }
        case Expression.Unary unary ->
            unary.operator().equals("NOT")
                ? new NotEvaluator(compile(unary.operand()))
                : new NegateEvaluator(compile(unary.operand()));
        case Expression.Binary binary -> binary(binary);
        case Expression.Call call -> call(call);
      };
    }

    private ExpressionEvaluator binary(Expression.Binary binary) {
      String operator = binary.operator();
      ExpressionEvaluator left = compile(binary.left());
      ExpressionEvaluator right = compile(binary.right());
      switch (operator) {
        case "AND", "OR", "XOR" -> {
          return new LogicEvaluator(operator, left, lazy(binary.right(), right));
        }
        case "+", "-", "*", "/", "%" -> {
          return new ArithmeticEvaluator(operator.charAt(0), left, right);
        }
        case "." -> {
          return new ConcatEvaluator(left, right);
        }
        case "LIKE" -> {
          return new LikeEvaluator(left, right, evaluator);
        }
        default -> {
          if (!ComparisonEvaluator.isComparison(operator)) {
            throw new IllegalArgumentException("no such operator: " + operator);
          }
          return new ComparisonEvaluator(operator, left, right);
        }
      }
    }

    private ExpressionEvaluator call(Expression.Call call) {
      String function = call.function();
      switch (function) {
        case "searchmatch" -> {
          return searchMatch(call);
        }
        case "mvfilter" -> {
          return mvfilter(call.arguments().get(0));
        }
        case "mvmap" -> {
          String field = ((Expression.Field) call.arguments().get(0)).name();
          List<String> inner = new ArrayList<>(assigned);
          inner.add(field);
          Expression expression = call.arguments().get(1);
          return MultivalueEvaluator.map(
              compile(call.arguments().get(0)),
              new ReadsFields(new Scope(inner).compile(expression), pageFields(expression)),
              assigned.size());
        }
        case "sigfig" -> {
          Expression argument = call.arguments().get(0);
          List<Expression> operands =
              io.quarry.ql.parser.SigFigOperands.kind(argument) == null
                  ? List.of()
                  : io.quarry.ql.parser.SigFigOperands.operands(argument);
          return new SigFigEvaluator(
              call.arguments(),
              compile(argument),
              operands,
              operands.stream().map(this::compile).toList());
        }
        default -> {}
      }
      List<ExpressionEvaluator> arguments = new ArrayList<>();
      for (Expression argument : call.arguments()) {
        ExpressionEvaluator compiled = compile(argument);
        arguments.add(
            switch (function) {
              case "if", "case", "coalesce" -> lazy(argument, compiled);
              default -> compiled;
            });
      }
      switch (function) {
        case "if" -> {
          // the condition is always evaluated, a branch only where it is taken
          return new ConditionalEvaluator(
              List.of(arguments.get(0)), List.of(arguments.get(1)), arguments.get(2));
        }
        case "case" -> {
          int pairs = arguments.size() / 2;
          if (pairs == 0) {
            return new LiteralEvaluator(null);
          }
          List<ExpressionEvaluator> conditions = new ArrayList<>();
          List<ExpressionEvaluator> values = new ArrayList<>();
          for (int i = 0; i < pairs; i++) {
            conditions.add(arguments.get(2 * i));
            values.add(arguments.get(2 * i + 1));
          }
          return new ConditionalEvaluator(conditions, values, null);
        }
        case "coalesce" -> {
          return arguments.isEmpty()
              ? new LiteralEvaluator(null)
              : new CoalesceEvaluator(arguments);
        }
        case "isnull", "isnotnull" -> {
          if (arguments.size() == 1) {
            return new NullTestEvaluator(arguments.get(0), function.equals("isnull"));
          }
        }
        default -> {}
      }
      if (arguments.size() == 1
          && call.arguments().get(0) instanceof Expression.Field
          && io.quarry.ql.exec.EvalValues.typesFieldValues(function)) {
        arguments.set(0, new TypedFieldEvaluator(arguments.get(0)));
      }
      if (TextFunctionEvaluator.handles(function, arguments.size())) {
        return new TextFunctionEvaluator(function, arguments.get(0), evaluator);
      }
      BoundCallEvaluator bound = BoundCallEvaluator.of(function, arguments, evaluator);
      return bound != null ? bound : new CallEvaluator(function, arguments, evaluator);
    }

    /**
     * A part evaluated only where it is taken ({@link Lazily}): one that is not total with the page
     * fields it reads, so only those are copied for its positions.
     */
    private static ExpressionEvaluator lazy(Expression expression, ExpressionEvaluator compiled) {
      return compiled.total() ? compiled : new ReadsFields(compiled, pageFields(expression));
    }

    /**
     * {@code searchmatch("<search>")}, compiled once; the fields an earlier assignment of this eval
     * set are read from their slots (each slot's last assignment).
     */
    private ExpressionEvaluator searchMatch(Expression.Call call) {
      if (!(call.arguments().get(0) instanceof Expression.Literal(String text))) {
        return new LiteralEvaluator(false); // as Evaluator answers (the parser refuses it)
      }
      io.quarry.ql.ast.SearchExpression search = io.quarry.ql.exec.SearchMatch.parse(text);
      List<String> overlaid = new ArrayList<>();
      List<Integer> slots = new ArrayList<>();
      for (String field : io.quarry.ql.exec.SearchMatch.fields(search)) {
        int slot = assigned.lastIndexOf(field);
        if (slot >= 0) {
          overlaid.add(field);
          slots.add(slot);
        }
      }
      return new SearchMatchEvaluator(
          search,
          evaluator.rawTermMatcher(),
          overlaid,
          slots.stream().mapToInt(Integer::intValue).toArray());
    }

    /**
     * {@code mvfilter(condition)}: the condition over each value of the one field it reads, as a
     * row of that field alone sees it; null when it reads no field or several.
     */
    private ExpressionEvaluator mvfilter(Expression condition) {
      java.util.Set<String> fields = new java.util.HashSet<>();
      collectFields(condition, fields);
      if (fields.size() != 1) {
        return new LiteralEvaluator(null);
      }
      String field = fields.iterator().next();
      return MultivalueEvaluator.filter(
          compile(new Expression.Field(field)), new Scope(List.of(field)).compile(condition));
    }
  }

  /**
   * The page fields an expression may read: the fields it names, a {@code searchmatch}'s search's
   * fields, {@code _raw} and the event's own text for its terms, and {@code *} for those too (a
   * term asks every field of a row without {@code _raw}: {@code FieldValueTerm}). A frame over only
   * these columns evaluates it as the whole page does.
   */
  public static java.util.Set<String> pageFields(Expression expression) {
    java.util.Set<String> fields = new java.util.HashSet<>();
    collectFields(expression, fields);
    collectSearchFields(expression, fields);
    if (fields.contains("_raw")) {
      fields.add(io.quarry.ql.exec.EventText.OWN_RAW);
    }
    return fields;
  }

  private static void collectSearchFields(Expression expression, java.util.Set<String> into) {
    switch (expression) {
      case Expression.Call call -> {
        if (call.function().equals("searchmatch")
            && call.arguments().size() == 1
            && call.arguments().get(0) instanceof Expression.Literal(String text)) {
          java.util.Set<String> searched =
              io.quarry.ql.exec.SearchMatch.fields(io.quarry.ql.exec.SearchMatch.parse(text));
          into.addAll(searched);
          if (searched.contains("_raw")) {
            into.add("*"); // a term: every field of a row without _raw
          }
        }
        call.arguments().forEach(a -> collectSearchFields(a, into));
      }
      case Expression.Unary unary -> collectSearchFields(unary.operand(), into);
      case Expression.Binary binary -> {
        collectSearchFields(binary.left(), into);
        collectSearchFields(binary.right(), into);
      }
      default -> {}
    }
  }

  /** The fields an expression names (as {@code Evaluator} finds mvfilter's one field). */
  private static void collectFields(Expression expression, java.util.Set<String> into) {
    switch (expression) {
      case Expression.Field field -> into.add(field.name());
      case Expression.Unary unary -> collectFields(unary.operand(), into);
      case Expression.Binary binary -> {
        collectFields(binary.left(), into);
        collectFields(binary.right(), into);
      }
      case Expression.Call call -> call.arguments().forEach(a -> collectFields(a, into));
      case Expression.Literal literal -> {}
    }
  }
}
