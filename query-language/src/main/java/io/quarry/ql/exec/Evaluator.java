package io.quarry.ql.exec;

import static io.quarry.ql.exec.EvalValues.anyMatch;
import static io.quarry.ql.exec.EvalValues.compare;
import static io.quarry.ql.exec.EvalValues.multivalue;
import static io.quarry.ql.exec.EvalValues.number;
import static io.quarry.ql.exec.EvalValues.text;
import static io.quarry.ql.exec.EvalValues.values;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * A search's expression context and its functions: the time and zone, the lookup tables, the
 * search's resources (memory, cancellation, warnings), how terms match raw text, and {@link #apply}
 * — every eval function applied to its arguments' values. Expressions themselves are compiled once
 * per driver into evaluators over pages ({@code io.quarry.ql.eval.ExpressionCompiler}, whose nodes
 * give these semantics; no expression is walked per row). Values are null, {@code Long}, {@code
 * Double}, {@code String}, {@code Boolean}, or a {@code List} of two or more of those (a
 * multivalue). Field values that look like numbers act as numbers; {@code _time} is epoch seconds.
 * Null propagates: arithmetic, comparison and string functions of a null are null, and a null
 * condition is false. {@code +} adds numbers and concatenates strings; {@code .} always
 * concatenates. Comparisons are numeric when both sides are numbers, otherwise case-sensitive text
 * comparisons; a multivalue compares true when any of its values does.
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
