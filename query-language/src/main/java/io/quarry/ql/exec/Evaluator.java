package io.quarry.ql.exec;

import static io.quarry.ql.exec.EvalValues.anyMatch;
import static io.quarry.ql.exec.EvalValues.arithmetic;
import static io.quarry.ql.exec.EvalValues.compare;
import static io.quarry.ql.exec.EvalValues.compares;
import static io.quarry.ql.exec.EvalValues.multivalue;
import static io.quarry.ql.exec.EvalValues.number;
import static io.quarry.ql.exec.EvalValues.text;
import static io.quarry.ql.exec.EvalValues.values;

import io.quarry.ql.ast.Expression;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * Evaluates {@code eval}/{@code where} expressions over a row with Splunk's semantics. Values are
 * null, {@code Long}, {@code Double}, {@code String}, {@code Boolean}, or a {@code List} of two or
 * more of those (a multivalue). Field values that look like numbers act as numbers; {@code _time}
 * is epoch seconds. Null propagates: arithmetic, comparison and string functions of a null are
 * null, and a null condition is false. {@code +} adds numbers and concatenates strings; {@code .}
 * always concatenates. Comparisons are numeric when both sides are numbers, otherwise
 * case-sensitive text comparisons; a multivalue compares true when any of its values does.
 */
public final class Evaluator {
  private final Instant now;
  private final ZoneId zone;

  private final LookupTable.Source lookups;

  /** The search's time: what {@code now()} returns. */
  public Instant now() {
    return now;
  }

  public Evaluator(Instant now, ZoneId zone) {
    this(now, zone, LookupTable.Source.NONE);
  }

  private final LookupTable.Writer lookupWriter;

  /** An evaluator whose searches can read lookup tables from {@code lookups}. */
  public Evaluator(Instant now, ZoneId zone, LookupTable.Source lookups) {
    this(now, zone, lookups, LookupTable.Writer.NONE);
  }

  /** An evaluator whose searches read lookup tables and write them ({@code outputlookup}). */
  public Evaluator(
      Instant now, ZoneId zone, LookupTable.Source lookups, LookupTable.Writer lookupWriter) {
    this.now = now;
    this.zone = zone;
    this.lookups = java.util.Objects.requireNonNull(lookups, "lookups is null");
    this.lookupWriter = java.util.Objects.requireNonNull(lookupWriter, "lookupWriter is null");
  }

  private SearchResources resources = SearchResources.unbounded();

  /** This evaluator, its search's operators using {@code runtime} (memory, cancellation). */
  public Evaluator withResources(SearchResources runtime) {
    this.resources = java.util.Objects.requireNonNull(runtime, "runtime is null");
    return this;
  }

  private RawTermMatcher rawTerms; // null: a position's raw text cannot be searched

  /** This evaluator, matching search terms in a page's {@code _raw} with {@code matcher}. */
  public Evaluator withRawTermMatcher(RawTermMatcher matcher) {
    this.rawTerms = java.util.Objects.requireNonNull(matcher, "matcher is null");
    return this;
  }

  /** How search terms match a page's {@code _raw} ({@code searchmatch()}), or null if unknown. */
  public RawTermMatcher rawTermMatcher() {
    return rawTerms;
  }

  /** Whether work in progress should end now (see {@link SearchResources#stopped}). */
  public java.util.function.BooleanSupplier stopped() {
    return resources.stopped();
  }

  /** Adds a warning to the search's answer (as a plugin's warnings are). */
  public void warn(String message) {
    resources.warnings().accept(message);
  }

  /** A memory tracker for a new built-in operator of this search. */
  public MemoryTracker memory(String stage) {
    return resources.tracker(stage);
  }

  /** The context of a new plugin operator of this search. */
  public io.quarry.plugin.api.command.OperatorContext pluginContext() {
    return resources.context(now, zone);
  }

  /** Where {@code outputlookup} writes. */
  public LookupTable.Writer lookupWriter() {
    return lookupWriter;
  }

  private MetricAppend metricAppend = MetricAppend.NONE;

  /** This evaluator, its search's {@code mstats append=true} reading points from {@code source}. */
  public Evaluator withMetricAppend(MetricAppend source) {
    this.metricAppend = java.util.Objects.requireNonNull(source, "source is null");
    return this;
  }

  /** Where {@code mstats append=true} reads its points. */
  public MetricAppend metricAppend() {
    return metricAppend;
  }

  /** The lookup table of that name, or null. */
  public LookupTable lookup(String name) {
    return lookups.table(name);
  }

  /** The zone of time formats and spans. */
  public ZoneId zone() {
    return zone;
  }

  /** like(), match(), replace() and mvfind(), their patterns compiled once per search. */
  private final RegexFunctions regexes = new RegexFunctions(() -> resources.stopped());

  /** searchmatch()'s searches, compiled once. */
  private final SearchMatch searchMatches = new SearchMatch();

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
      case "LIKE" -> anyMatch(left, right, (a, b) -> regexes.like(text(a), text(b)));
      default -> anyMatch(left, right, (a, b) -> compares(operator, compare(a, b)));
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
            && searchMatches.test(search, row);
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
    return applyValues(call.function(), v);
  }

  /**
   * Functions that read their argument expressions themselves (conditionally, per value, or as
   * text) instead of being applied to their arguments' values: everything else {@link
   * #apply(String, List)} answers.
   */
  private static final java.util.Set<String> SPECIAL_FORMS =
      java.util.Set.of("if", "case", "coalesce", "mvfilter", "searchmatch", "mvmap", "sigfig");

  /**
   * Whether {@code function} is applied to its arguments' values ({@link #apply(String, List)}).
   */
  public static boolean appliesToValues(String function) {
    return !SPECIAL_FORMS.contains(function);
  }

  /**
   * The value of {@code function} (one that {@link #appliesToValues}) over its arguments' values,
   * exactly as {@link #evaluate} computes a call once its arguments are evaluated: what compiled
   * evaluators call for the functions they have no fast path for.
   */
  public Object apply(String function, List<Object> arguments) {
    if (!appliesToValues(function)) {
      throw new IllegalArgumentException(function + "() reads its argument expressions itself");
    }
    return applyValues(function, arguments);
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

  private Object applyValues(String function, List<Object> v) {
    Object a = v.isEmpty() ? null : v.get(0);
    switch (function) {
      case "null":
        return null;
      case "true":
        return true;
      case "false":
        return false;
      case "isnull":
        return a == null;
      case "isnotnull":
        return a != null;
      case "isnum":
        return a instanceof Long || a instanceof Double;
      case "isstr":
        return a instanceof String;
      case "isint":
        return a instanceof Long || a instanceof Double d && d == Math.rint(d);
      case "nullif":
        return a != null && v.get(1) != null && text(a).equals(text(v.get(1))) ? null : a;
      case "typeof":
        return a == null
            ? "Invalid"
            : a instanceof Boolean
                ? "Boolean"
                : number(a) != null && !(a instanceof String)
                    ? "Number"
                    : a instanceof List ? "Multivalue" : "String";
      case "mvcount":
        return a == null ? null : (long) values(a).size();
      case "mvappend":
        {
          List<Object> all = new ArrayList<>();
          v.forEach(x -> all.addAll(values(x)));
          return multivalue(all);
        }
      case "in":
        {
          if (a == null) {
            return null;
          }
          for (int i = 1; i < v.size(); i++) {
            if (v.get(i) != null
                && Boolean.TRUE.equals(anyMatch(a, v.get(i), (x, y) -> compare(x, y) == 0))) {
              return true;
            }
          }
          return false;
        }
      case "min":
      case "max":
        {
          Object best = null;
          for (Object value : v) {
            for (Object each : values(value)) {
              if (best == null
                  || (function.equals("min")
                      ? minOrder(each, best) < 0
                      : minOrder(each, best) > 0)) {
                best = each;
              }
            }
          }
          return best;
        }
      case "json_object", "json_array", "json_extract", "json_keys", "json_valid", "spath":
        return JsonFunctions.apply(function, v); // a null is JSON's null, or no document
      case "json_set",
      "json_delete",
      "json_append",
      "json_extend",
      "json_array_to_mv",
      "mv_to_json_array",
      "json_extract_exact",
      "json_set_exact",
      "json_has_key_exact":
        return JsonEditFunctions.apply(function, v);
      case "now":
        return now.getEpochSecond();
      case "time":
        return Instant.now().toEpochMilli() / 1000.0;
      default:
        break;
    }
    for (Object value : v) {
      if (value == null) {
        return null; // the remaining functions are null when an argument is
      }
    }
    switch (function) {
      case "replace":
        return regexes.replace(text(a), text(v.get(1)), text(v.get(2)));
      case "match":
        return regexes.match(text(a), text(v.get(1)));
      case "mvfind":
        return regexes.mvfind(values(a), text(v.get(1)));
      case "len",
      "lower",
      "upper",
      "substr",
      "split",
      "trim",
      "ltrim",
      "rtrim",
      "tonumber",
      "tostring",
      "urldecode",
      "md5",
      "sha1",
      "sha256",
      "sha512":
        return TextFunctions.apply(function, v);
      case "round", "floor", "ceil", "ceiling", "abs", "sqrt", "ln", "exp", "log", "pow":
        return NumberFunctions.apply(function, v);
      case "strftime", "strptime", "relative_time":
        return TimeFunctions.apply(function, v, zone);
      case "mvindex", "mvjoin":
        return MultivalueFunctions.apply(function, v);
      case "acos",
      "acosh",
      "asin",
      "asinh",
      "atan",
      "atanh",
      "cos",
      "cosh",
      "sin",
      "sinh",
      "tan",
      "tanh",
      "atan2",
      "hypot",
      "pi",
      "exact",
      "random":
        return MathFunctions.apply(function, v);
      case "like":
        return regexes.like(text(a), text(v.get(1)));
      case "cidrmatch":
        return Cidr.parse(text(a)).map(c -> c.contains(text(v.get(1)))).orElse(false);
      case "mvdedup", "mvsort", "mvzip", "mvrange":
        return MultivalueFunctions.apply(function, v);
      case "printf":
        return Printf.format(v);
      default:
        throw new IllegalStateException("no implementation for eval function " + function);
    }
  }

  /** Numbers before text, numbers numerically, text case-sensitively (min/max). */
  private static int minOrder(Object a, Object b) {
    Object x = number(a);
    Object y = number(b);
    if ((x == null) != (y == null)) {
      return x != null ? -1 : 1;
    }
    return compare(a, b);
  }
}
