package io.quarry.ql.eval;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.Expression;
import io.quarry.ql.exec.Evaluator;
import java.util.ArrayList;
import java.util.List;

/**
 * Compiles an {@code eval}/{@code where} expression once per driver (a page chain: a segment slice
 * on one thread) into an {@link ExpressionEvaluator} tree: a fast node for field references,
 * literals, {@code + - * / % .}, comparisons, {@code AND OR XOR NOT LIKE}, unary minus, {@code if},
 * {@code case}, {@code coalesce}, {@code isnull}, {@code isnotnull}, {@code len}, {@code lower},
 * {@code upper}, {@code tostring(x)}, {@code tonumber(x)}; every other function applied per
 * position by the search's {@link Evaluator} over compiled arguments ({@link CallEvaluator}); what
 * must see its argument expressions ({@code mvfilter}, {@code mvmap}, {@code sigfig}), and
 * conditionals whose lazily evaluated parts are not {@link ExpressionEvaluator#total}, evaluated
 * whole by the {@code Evaluator} position by position ({@link RowFallbackEvaluator}). So every
 * expression compiles, and each node answers as the {@code Evaluator} does.
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
        case "AND", "OR" -> {
          // Evaluator evaluates the right side only when the left does not decide
          return right.total() ? new LogicEvaluator(operator, left, right) : fallback(binary);
        }
        case "XOR" -> {
          return new LogicEvaluator(operator, left, right);
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
          return ComparisonEvaluator.isComparison(operator)
              ? new ComparisonEvaluator(operator, left, right)
              : fallback(binary);
        }
      }
    }

    private ExpressionEvaluator call(Expression.Call call) {
      String function = call.function();
      List<ExpressionEvaluator> arguments = new ArrayList<>();
      for (Expression argument : call.arguments()) {
        arguments.add(compile(argument));
      }
      switch (function) {
        case "searchmatch" -> {
          // compiled once; not when it reads a field an earlier assignment of this eval set
          if (call.arguments().size() == 1
              && call.arguments().get(0) instanceof Expression.Literal(String text)) {
            io.quarry.ql.ast.SearchExpression search = io.quarry.ql.exec.SearchMatch.parse(text);
            if (io.quarry.ql.exec.SearchMatch.fields(search).stream()
                .noneMatch(assigned::contains)) {
              return new SearchMatchEvaluator(search, evaluator.rawTermMatcher());
            }
          }
          return fallback(call);
        }
        case "if" -> {
          // the condition is always evaluated, a branch only where it is taken
          return arguments.size() == 3 && allTotal(arguments.subList(1, 3))
              ? new ConditionalEvaluator(
                  List.of(arguments.get(0)), List.of(arguments.get(1)), arguments.get(2))
              : fallback(call);
        }
        case "case" -> {
          int pairs = arguments.size() / 2;
          if (pairs == 0 || !allTotal(arguments.subList(1, 2 * pairs))) {
            return fallback(call);
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
          return !arguments.isEmpty() && allTotal(arguments.subList(1, arguments.size()))
              ? new CoalesceEvaluator(arguments)
              : fallback(call);
        }
        case "isnull", "isnotnull" -> {
          if (arguments.size() == 1) {
            return new NullTestEvaluator(arguments.get(0), function.equals("isnull"));
          }
        }
        default -> {}
      }
      if (TextFunctionEvaluator.handles(function, arguments.size())) {
        return new TextFunctionEvaluator(function, arguments.get(0), evaluator);
      }
      return Evaluator.appliesToValues(function)
          ? new CallEvaluator(function, arguments, evaluator)
          : fallback(call);
    }

    private static boolean allTotal(List<ExpressionEvaluator> evaluators) {
      return evaluators.stream().allMatch(ExpressionEvaluator::total);
    }

    private ExpressionEvaluator fallback(Expression expression) {
      int[] slots = new int[assigned.size()];
      List<String> names = new ArrayList<>();
      for (int i = 0; i < slots.length; i++) {
        if (assigned.lastIndexOf(assigned.get(i)) == i) {
          slots[names.size()] = i;
          names.add(assigned.get(i));
        }
      }
      return new RowFallbackEvaluator(
          expression, evaluator, names, java.util.Arrays.copyOf(slots, names.size()));
    }
  }
}
