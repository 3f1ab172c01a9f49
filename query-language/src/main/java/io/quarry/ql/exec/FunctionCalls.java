package io.quarry.ql.exec;

import static io.quarry.ql.exec.EvalValues.anyMatch;
import static io.quarry.ql.exec.EvalValues.compare;
import static io.quarry.ql.exec.EvalValues.comparison;
import static io.quarry.ql.exec.EvalValues.multivalue;
import static io.quarry.ql.exec.EvalValues.number;
import static io.quarry.ql.exec.EvalValues.text;
import static io.quarry.ql.exec.EvalValues.values;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * How a search answers a call of an eval function from its arguments' values: {@link #apply} (the
 * whole list) and {@link #bind} (every argument but one fixed, read once). The functions that need
 * the whole argument list (conditions, {@code in}, {@code min}/{@code max}, {@code now()}, the type
 * tests) are answered here; every other family lives in its own class ({@link TextFunctions},
 * {@link NumberFunctions}, {@link TimeFunctions}, {@link MultivalueFunctions}, {@link
 * BitFunctions}, {@link RegexFunctions}, {@link MathFunctions}, {@link JsonFunctions}, …), over
 * {@link EvalValues}' coercion. One per {@link Evaluator}: the search's time, zone and regex cache.
 */
final class FunctionCalls {
  private final Instant now;
  private final ZoneId zone;

  /** like(), match(), replace() and mvfind(), their patterns compiled once per search. */
  private final RegexFunctions regexes;

  /** The calls of a search at {@code now} in {@code zone}, its regexes stopping when it does. */
  FunctionCalls(Instant now, ZoneId zone, Supplier<BooleanSupplier> stopped) {
    this.now = now;
    this.zone = zone;
    this.regexes = new RegexFunctions(Objects.requireNonNull(stopped, "stopped is null"));
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
  static boolean appliesToValues(String function) {
    return !SPECIAL_FORMS.contains(function);
  }

  /**
   * The value of {@code function} (one that {@link #appliesToValues}) over its arguments' values,
   * as a call computes it once its arguments are evaluated: what compiled evaluators call for the
   * functions they have no fast path for.
   */
  Object apply(String function, List<Object> arguments) {
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
        return a instanceof Long
            || a instanceof Double d && Double.isFinite(d) && d == Math.rint(d);
      case "isbool", "isdouble", "isarray", "isobject", "ismv":
        return InformationalFunctions.apply(function, a);
      case "validate":
        for (int i = 0; i + 1 < v.size(); i += 2) {
          if (!Boolean.TRUE.equals(v.get(i))) {
            return v.get(i + 1); // the first condition that does not hold (a null one neither)
          }
        }
        return null;
      case "sum", "avg":
        return StatisticalFunctions.apply(function, v); // missing values left out
      case "nullif":
        return a != null && v.get(1) != null && text(a).equals(text(v.get(1))) ? null : a;
      case "typeof":
        return a == null
            ? "Invalid"
            : a instanceof Boolean
                ? "Bool"
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
                && Boolean.TRUE.equals(anyMatch(a, v.get(i), (x, y) -> comparison(x, y) == 0))) {
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
              if (each instanceof Double d && d.isNaN()) {
                return d; // a NaN among numbers: NaN, as stats min/max answer (docs/search.md)
              }
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
    if (v.isEmpty()) {
      return MathFunctions.apply(function, v); // pi(), random()
    }
    BoundFunction bound = bound(function, v.subList(1, v.size()));
    if (bound == null) {
      throw new IllegalStateException("no implementation for eval function " + function);
    }
    return bound.apply(a);
  }

  /**
   * {@code function} (one that {@link #appliesToValues}) with every argument but the one at {@code
   * subject} fixed to its value in {@code arguments}: what {@link #apply} answers for the whole
   * list, the fixed arguments read once (a pattern compiled, a format parsed) — or null for a
   * function that is not one of its arguments alone ({@code random()}, {@code time()}).
   */
  BoundFunction bind(String function, int subject, List<Object> arguments) {
    if (!appliesToValues(function)) {
      throw new IllegalArgumentException(function + "() reads its argument expressions itself");
    }
    if (function.equals("random") || function.equals("time")) {
      return null;
    }
    boolean fixedNull = false;
    for (int i = 0; i < arguments.size(); i++) {
      fixedNull |= i != subject && arguments.get(i) == null;
    }
    if (!fixedNull && arguments.size() > subject) {
      BoundFunction bound =
          subject == 0
              ? bound(function, arguments.subList(1, arguments.size()))
              : subject == 1 && function.equals("cidrmatch")
                  ? Cidr.parse(text(arguments.get(0)))
                      .<BoundFunction>map(FunctionCalls::cidrMatch)
                      .orElse(ip -> false)
                  : subject == 1 && function.equals("ipmask")
                      ? IpMask.ofMask(arguments.get(0))
                      : null;
      if (bound instanceof NumberFunction typed) {
        return typed; // null for null already, and typed for a column of numbers
      }
      if (bound != null) {
        return x -> x == null ? null : bound.apply(x);
      }
    }
    List<Object> fixed = new ArrayList<>(arguments);
    return x -> {
      List<Object> v = new ArrayList<>(fixed);
      v.set(subject, x);
      return applyValues(function, v);
    };
  }

  /**
   * The functions that are null when an argument is, bound to their arguments after the first
   * ({@code rest}: none null); null for any other function.
   */
  private BoundFunction bound(String function, List<Object> rest) {
    switch (function) {
      case "replace":
        return regexes.replacer(text(rest.get(0)), text(rest.get(1)));
      case "match":
        return regexes.matcher(text(rest.get(0)));
      case "mvfind":
        return regexes.finder(text(rest.get(0)));
      case "like":
        return regexes.liker(text(rest.get(0)));
      case "cidrmatch":
        {
          Object ip = rest.get(0);
          return cidr -> Cidr.parse(text(cidr)).map(c -> cidrMatch(c).apply(ip)).orElse(false);
        }
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
      "random":
        return x -> MathFunctions.apply(function, with(x, rest));
      case "printf":
        return x -> Printf.format(with(x, rest));
      case "ipmask":
        return IpMask.ofAddress(rest.get(0));
      default:
        break;
    }
    BoundFunction bound = TextFunctions.bind(function, rest);
    if (bound == null) {
      bound = NumberFunctions.bind(function, rest);
    }
    if (bound == null) {
      bound = TimeFunctions.bind(function, rest, zone);
    }
    if (bound == null) {
      bound = MultivalueFunctions.bind(function, rest);
    }
    if (bound == null) {
      bound = BitFunctions.bind(function, rest);
    }
    return bound;
  }

  /** {@code cidrmatch(cidr, ip)} for one parsed CIDR block. */
  private static BoundFunction cidrMatch(Cidr cidr) {
    return ip -> cidr.contains(text(ip));
  }

  /** {@code first} followed by {@code rest}. */
  private static List<Object> with(Object first, List<Object> rest) {
    List<Object> all = new ArrayList<>(rest.size() + 1);
    all.add(first);
    all.addAll(rest);
    return all;
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
