package io.quarry.ql.exec;

import static io.quarry.ql.exec.EvalValues.text;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * How a search answers a call of an eval function from its arguments' values: {@link #apply} (the
 * whole list) and {@link #bind} (every argument but one fixed, read once). It only dispatches: each
 * family lives in its own class ({@link ConditionalFunctions}, {@link InformationalFunctions},
 * {@link StatisticalFunctions}, {@link TextFunctions}, {@link NumberFunctions}, {@link
 * TimeFunctions}, {@link MultivalueFunctions}, {@link BitFunctions}, {@link RegexFunctions}, {@link
 * MathFunctions}, {@link JsonFunctions}, {@link JsonEditFunctions}, {@link Printf}, {@link
 * IpMask}), over {@link EvalValues}' coercion. One per {@link Evaluator}: the search's time, zone
 * and regex cache.
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
      case "null", "true", "false", "validate", "nullif", "in":
        return ConditionalFunctions.apply(function, v);
      case "isnull",
      "isnotnull",
      "isnum",
      "isstr",
      "isint",
      "typeof",
      "isbool",
      "isdouble",
      "isarray",
      "isobject",
      "ismv":
        return InformationalFunctions.apply(function, a);
      case "sum", "avg", "min", "max":
        return StatisticalFunctions.apply(function, v); // missing values left out
      case "mvcount", "mvappend":
        return MultivalueFunctions.apply(function, v);
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
      case "now", "time":
        return TimeFunctions.clock(function, now);
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
                  ? ConditionalFunctions.cidrMatchIn(arguments.get(0))
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
        return ConditionalFunctions.cidrMatchOf(rest.get(0));
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

  /** {@code first} followed by {@code rest}. */
  private static List<Object> with(Object first, List<Object> rest) {
    List<Object> all = new ArrayList<>(rest.size() + 1);
    all.add(first);
    all.addAll(rest);
    return all;
  }
}
