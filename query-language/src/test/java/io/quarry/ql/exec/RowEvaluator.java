package io.quarry.ql.exec;

import static io.quarry.ql.exec.EvalValues.anyMatch;
import static io.quarry.ql.exec.EvalValues.arithmetic;
import static io.quarry.ql.exec.EvalValues.compares;
import static io.quarry.ql.exec.EvalValues.comparison;
import static io.quarry.ql.exec.EvalValues.multivalue;
import static io.quarry.ql.exec.EvalValues.number;
import static io.quarry.ql.exec.EvalValues.text;
import static io.quarry.ql.exec.EvalValues.values;

import io.quarry.ql.ast.Expression;
import java.util.ArrayList;
import java.util.List;

/**
 * The row-at-a-time expression walk the page engine's evaluators replaced, kept as the tests'
 * reference ({@code CompiledEvaluatorTest} compares the compiled evaluators with it on random
 * pages): an expression tree walked per row, each function applied by {@link Evaluator#apply} —
 * Splunk's semantics as {@link Evaluator} documents them.
 */
public final class RowEvaluator {
  private final Evaluator evaluator;

  public RowEvaluator(Evaluator evaluator) {
    this.evaluator = evaluator;
  }

  /** searchmatch()'s searches, compiled once. */
  private final java.util.Map<String, java.util.function.Predicate<Row>> searchMatches =
      new java.util.HashMap<>();

  /** Whether a condition holds for a row. */
  public boolean test(Expression condition, Row row) {
    return Boolean.TRUE.equals(evaluate(condition, row));
  }

  public Object evaluate(Expression expression, Row row) {
    return switch (expression) {
      case Expression.Literal literal -> literal.value();
      case Expression.Field field -> field(row, field.name());
      case Expression.Unary unary -> unary(unary, row);
      case Expression.Binary binary -> binary(binary, row);
      case Expression.Call call -> call(call, row);
    };
  }

  static Object field(Row row, String name) {
    List<Object> values = row.values(name);
    if (values.isEmpty()) {
      return null;
    }
    if (TimeField.is(name)) {
      return TimeField.seconds(values.get(0));
    }
    return values.size() == 1 ? values.get(0) : List.copyOf(values);
  }

  private Object unary(Expression.Unary unary, Row row) {
    Object value = evaluate(unary.operand(), row);
    if (unary.operator().equals("NOT")) {
      return value instanceof Boolean b ? !b : null;
    }
    Object number = number(value);
    if (number instanceof Long l) {
      return l == Long.MIN_VALUE ? (Object) (-(double) l) : (Object) (-l);
    }
    return number instanceof Double d ? -d : null;
  }

  private Object binary(Expression.Binary binary, Row row) {
    String operator = binary.operator();
    switch (operator) {
      case "AND" -> {
        Object left = evaluate(binary.left(), row);
        if (Boolean.FALSE.equals(left)) {
          return false;
        }
        Object right = evaluate(binary.right(), row);
        return left instanceof Boolean && right instanceof Boolean r
            ? r
            : (Boolean.FALSE.equals(right) ? false : null);
      }
      case "OR" -> {
        Object left = evaluate(binary.left(), row);
        if (Boolean.TRUE.equals(left)) {
          return true;
        }
        Object right = evaluate(binary.right(), row);
        return left instanceof Boolean && right instanceof Boolean r
            ? r
            : (Boolean.TRUE.equals(right) ? true : null);
      }
      default -> {}
    }
    Object left = evaluate(binary.left(), row);
    Object right = evaluate(binary.right(), row);
    if (left == null || right == null) {
      return null;
    }
    return switch (operator) {
      case "XOR" -> left instanceof Boolean l && right instanceof Boolean r ? l ^ r : null;
      case "+" -> {
        Object sum = arithmetic('+', left, right);
        // numbers add; two texts that are not numbers concatenate; anything else is null
        yield sum != null
                || !(left instanceof String && right instanceof String)
                || number(left) != null
                || number(right) != null
            ? sum
            : text(left) + text(right);
      }
      case "-", "*", "/", "%" -> arithmetic(operator.charAt(0), left, right);
      case "." -> text(left) + text(right);
      case "LIKE" ->
          anyMatch(
              left,
              right,
              (a, b) -> Boolean.TRUE.equals(evaluator.apply("like", List.of(text(a), text(b)))));
      default -> anyMatch(left, right, (a, b) -> compares(operator, comparison(a, b)));
    };
  }

  private Object call(Expression.Call call, Row row) {
    List<Expression> args = call.arguments();
    switch (call.function()) {
      case "if" -> {
        return test(args.get(0), row) ? evaluate(args.get(1), row) : evaluate(args.get(2), row);
      }
      case "case" -> {
        for (int i = 0; i + 1 < args.size(); i += 2) {
          if (test(args.get(i), row)) {
            return evaluate(args.get(i + 1), row);
          }
        }
        return null;
      }
      case "coalesce" -> {
        for (Expression arg : args) {
          Object value = evaluate(arg, row);
          if (value != null) {
            return value;
          }
        }
        return null;
      }
      case "mvfilter" -> {
        return mvfilter(args.get(0), row);
      }
      case "searchmatch" -> {
        return args.get(0) instanceof Expression.Literal(String search)
            && searchMatches
                .computeIfAbsent(
                    search,
                    text -> {
                      io.quarry.ql.ast.SearchExpression parsed = SearchMatch.parse(text);
                      return parsed == null ? r -> false : RowPredicates.compile(parsed);
                    })
                .test(row);
      }
      case "mvmap" -> {
        return mvmap(((Expression.Field) args.get(0)).name(), args.get(1), row);
      }
      case "sigfig" -> {
        return SigFig.evaluate(args, arg -> evaluate(arg, row));
      }
      default -> {}
    }
    List<Object> v = new ArrayList<>(args.size());
    for (Expression arg : args) {
      v.add(evaluate(arg, row));
    }
    if (args.size() == 1
        && args.get(0) instanceof Expression.Field
        && EvalValues.typesFieldValues(call.function())) {
      v.set(0, EvalValues.typed(v.get(0))); // a type test sees a field's numeric text as a number
    }
    return evaluator.apply(call.function(), v);
  }

  private Object mvfilter(Expression condition, Row row) {
    String field = onlyField(condition);
    if (field == null) {
      return null;
    }
    List<Object> kept = new ArrayList<>();
    for (Object value : values(field(row, field))) {
      Row single = new SingleValueRow(field, value);
      if (test(condition, single)) {
        kept.add(value);
      }
    }
    return multivalue(kept);
  }

  /**
   * {@code mvmap(field, expression)}: the expression for each value of the field (the field's name
   * standing for the value, other fields as they are), the non-null answers as a multivalue.
   */
  private Object mvmap(String field, Expression expression, Row row) {
    List<Object> mapped = new ArrayList<>();
    for (Object value : values(field(row, field))) {
      Object result = evaluate(expression, new FieldOverlayRow(row, field, value));
      if (result instanceof List<?> list) {
        mapped.addAll(list);
      } else if (result != null) {
        mapped.add(result);
      }
      if (mapped.size() > MultivalueFunctions.MAX_RANGE) {
        break;
      }
    }
    return multivalue(mapped);
  }

  /** The one field an mvfilter condition reads, or null. */
  private static String onlyField(Expression expression) {
    java.util.Set<String> fields = new java.util.HashSet<>();
    collectFields(expression, fields);
    return fields.size() == 1 ? fields.iterator().next() : null;
  }

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
