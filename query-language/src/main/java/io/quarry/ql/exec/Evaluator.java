package io.quarry.ql.exec;

import io.quarry.ql.ast.Expression;
import io.quarry.ql.time.TimeModifiers;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;

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

  /** Whether work in progress should end now (see {@link SearchResources#stopped}). */
  public java.util.function.BooleanSupplier stopped() {
    return resources.stopped();
  }

  /** {@code text} as a user's regex reads it: the match ends when the search must stop. */
  private CharSequence guarded(String text) {
    return new StoppableText(resources.stopped()).reset(text);
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

  /** searchmatch()'s searches, compiled once. */
  private final SearchMatch searchMatches = new SearchMatch();

  /** Compiled regexes of match() and replace(), by pattern text (most queries use a few). */
  private final java.util.concurrent.ConcurrentMap<String, Pattern> patterns =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** like()'s patterns, compiled once, by their SPL text ({@code %} and {@code _} wildcards). */
  private final java.util.concurrent.ConcurrentMap<String, Pattern> likePatterns =
      new java.util.concurrent.ConcurrentHashMap<>();

  private Pattern pattern(String regex) {
    Pattern compiled = patterns.get(regex);
    if (compiled == null) {
      try {
        compiled = Pattern.compile(regex);
      } catch (java.util.regex.PatternSyntaxException e) {
        return null; // a pattern computed per row that is not a regex: no match, like a null
      }
      if (patterns.size() < 1024) {
        patterns.put(regex, compiled);
      }
    }
    return compiled;
  }

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
      case "LIKE" -> anyMatch(left, right, (a, b) -> like(text(a), text(b)));
      default -> anyMatch(left, right, (a, b) -> compares(operator, compare(a, b)));
    };
  }

  private interface Pairwise {
    boolean test(Object a, Object b);
  }

  private static Boolean anyMatch(Object left, Object right, Pairwise test) {
    for (Object a : left instanceof List<?> list ? list : List.of(left)) {
      for (Object b : right instanceof List<?> list ? list : List.of(right)) {
        if (test.test(a, b)) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean compares(String operator, int c) {
    return switch (operator) {
      case "=" -> c == 0;
      case "!=" -> c != 0;
      case "<" -> c < 0;
      case "<=" -> c <= 0;
      case ">" -> c > 0;
      default -> c >= 0;
    };
  }

  /** Numerically when both are numbers, else as case-sensitive text. */
  static int compare(Object a, Object b) {
    Object x = number(a);
    Object y = number(b);
    if (x != null && y != null) {
      if (x instanceof Long l && y instanceof Long m) {
        return Long.compare(l, m);
      }
      return Double.compare(((Number) x).doubleValue(), ((Number) y).doubleValue());
    }
    return text(a).compareTo(text(b));
  }

  /** A value as a Long or Double, or null when it is not a number. */
  static Object number(Object value) {
    if (value instanceof Long || value instanceof Double) {
      return value;
    }
    if (value instanceof String s) {
      double parsed = Values.parseNumber(s.strip());
      if (Double.isNaN(parsed)) {
        return null;
      }
      String stripped = s.strip();
      if (parsed == Math.rint(parsed)
          && Math.abs(parsed) < 0x1p53
          && stripped.indexOf('.') < 0
          && stripped.indexOf('e') < 0
          && stripped.indexOf('E') < 0) {
        return (long) parsed;
      }
      return parsed;
    }
    return null;
  }

  private static Object arithmetic(char operator, Object left, Object right) {
    Object x = number(left);
    Object y = number(right);
    if (x == null || y == null) {
      return null;
    }
    if (x instanceof Long a && y instanceof Long b) {
      try {
        return switch (operator) {
          case '+' -> Math.addExact(a, b);
          case '-' -> Math.subtractExact(a, b);
          case '*' -> Math.multiplyExact(a, b);
          case '/' -> b == 0 ? null : (a % b == 0 ? (Object) (a / b) : (Object) ((double) a / b));
          default -> b == 0 ? null : a % b;
        };
      } catch (ArithmeticException overflow) {
        // fall through to doubles
      }
    }
    double a = ((Number) x).doubleValue();
    double b = ((Number) y).doubleValue();
    double result =
        switch (operator) {
          case '+' -> a + b;
          case '-' -> a - b;
          case '*' -> a * b;
          case '/' -> b == 0 ? Double.NaN : a / b;
          default -> b == 0 ? Double.NaN : a % b;
        };
    return Double.isNaN(result) ? null : result;
  }

  static String text(Object value) {
    if (value instanceof List<?> list) {
      return list.isEmpty() ? "" : text(list.get(0));
    }
    if (value instanceof Double d) {
      return Values.toText(d);
    }
    return String.valueOf(value);
  }

  private boolean like(String text, String pattern) {
    Pattern compiled = likePatterns.get(pattern);
    if (compiled == null) {
      StringBuilder regex = new StringBuilder("(?s)"); // % and _ match line ends too
      for (char c : pattern.toCharArray()) {
        switch (c) {
          case '%' -> regex.append(".*");
          case '_' -> regex.append('.');
          default -> regex.append(Pattern.quote(String.valueOf(c)));
        }
      }
      compiled = Pattern.compile(regex.toString());
      if (likePatterns.size() < 1024) {
        likePatterns.put(pattern, compiled);
      }
    }
    try {
      return compiled.matcher(guarded(text)).matches();
    } catch (StoppableText.Stopped stopped) {
      return false;
    }
  }

  private static List<Object> values(Object value) {
    if (value == null) {
      return List.of();
    }
    if (value instanceof List<?> list) {
      return new ArrayList<>(list);
    }
    return List.of(value);
  }

  private static Object multivalue(List<Object> values) {
    return switch (values.size()) {
      case 0 -> null;
      case 1 -> values.get(0);
      default -> List.copyOf(values);
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
      default -> {}
    }
    List<Object> v = new ArrayList<>(args.size());
    for (Expression arg : args) {
      v.add(evaluate(arg, row));
    }
    return apply(call.function(), v);
  }

  private Object mvfilter(Expression condition, Row row) {
    String field = onlyField(condition);
    if (field == null) {
      return null;
    }
    List<Object> kept = new ArrayList<>();
    for (Object value : values(field(row, field))) {
      Row single = new MapRow(java.util.Map.of(field, value));
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

  private Object apply(String function, List<Object> v) {
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
      case "len":
        return (long) text(a).codePointCount(0, text(a).length());
      case "lower":
        return text(a).toLowerCase(java.util.Locale.ROOT);
      case "upper":
        return text(a).toUpperCase(java.util.Locale.ROOT);
      case "substr":
        return substr(text(a), v);
      case "replace":
        {
          Pattern regex = pattern(text(v.get(1)));
          try {
            return regex == null
                ? null
                : regex.matcher(guarded(text(a))).replaceAll(sedGroups(text(v.get(2))));
          } catch (StoppableText.Stopped stopped) {
            return null; // the search is ending (time limit, cancel): it says so itself
          }
        }
      case "split":
        {
          String separator = text(v.get(1));
          List<Object> parts = new ArrayList<>();
          if (separator.isEmpty()) {
            text(a).codePoints().forEach(c -> parts.add(new String(Character.toChars(c))));
          } else {
            parts.addAll(List.of((Object[]) text(a).split(Pattern.quote(separator), -1)));
          }
          return multivalue(parts);
        }
      case "trim":
      case "ltrim":
      case "rtrim":
        return trim(function, text(a), v.size() > 1 ? text(v.get(1)) : " \t");
      case "tonumber":
        return tonumber(a, v.size() > 1 ? number(v.get(1)) : null);
      case "tostring":
        return tostring(a, v.size() > 1 ? text(v.get(1)) : null);
      case "round":
        {
          Object x = number(a);
          if (x == null || (x instanceof Double d && !Double.isFinite(d))) {
            return null;
          }
          // doubles carry 17 significant digits: more decimals change nothing but cost memory
          int digits =
              v.size() > 1 && number(v.get(1)) instanceof Number n
                  ? (int) Math.max(-17, Math.min(17, n.longValue()))
                  : 0;
          BigDecimal rounded = new BigDecimal(x.toString()).setScale(digits, RoundingMode.HALF_UP);
          return digits <= 0 ? (Object) rounded.longValue() : (Object) rounded.doubleValue();
        }
      case "floor":
      case "ceil":
      case "ceiling":
      case "abs":
      case "sqrt":
      case "ln":
      case "exp":
        return math(function, a);
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
      case "log":
        {
          Object x = number(a);
          Object base = v.size() > 1 ? number(v.get(1)) : 10L;
          if (x == null || base == null) {
            return null;
          }
          double value = ((Number) x).doubleValue();
          double b = ((Number) base).doubleValue();
          return finite(b == 10 ? Math.log10(value) : Math.log(value) / Math.log(b));
        }
      case "pow":
        {
          Object x = number(a);
          Object y = number(v.get(1));
          if (x == null || y == null) {
            return null;
          }
          double result = Math.pow(((Number) x).doubleValue(), ((Number) y).doubleValue());
          return x instanceof Long
                  && y instanceof Long
                  && Math.abs(result) < 0x1p53
                  && result == Math.rint(result)
              ? (Object) (long) result
              : finite(result);
        }
      case "strftime":
        {
          Object seconds = number(a);
          if (seconds == null) {
            return null;
          }
          long micros = (long) Math.floor(((Number) seconds).doubleValue() * 1_000_000d);
          return Strftime.format(micros, text(v.get(1)), zone);
        }
      case "strptime":
        {
          Long micros = Strftime.parse(text(a), text(v.get(1)), zone);
          return micros == null ? null : TimeField.secondsOf(micros);
        }
      case "relative_time":
        {
          Object seconds = number(a);
          if (seconds == null) {
            return null;
          }
          long base = (long) (((Number) seconds).doubleValue() * 1_000_000d);
          try {
            return TimeField.secondsOf(
                TimeModifiers.resolveMicros(
                    text(v.get(1)), Instant.ofEpochSecond(0, base * 1000), zone));
          } catch (IllegalArgumentException e) {
            return null;
          }
        }
      case "match":
        {
          Pattern regex = pattern(text(v.get(1)));
          try {
            return regex == null ? null : regex.matcher(guarded(text(a))).find();
          } catch (StoppableText.Stopped stopped) {
            return null;
          }
        }
      case "like":
        return like(text(a), text(v.get(1)));
      case "cidrmatch":
        return Cidr.parse(text(a)).map(c -> c.contains(text(v.get(1)))).orElse(false);
      case "mvindex":
        return mvindex(values(a), v);
      case "mvjoin":
        {
          List<String> parts = values(a).stream().map(Evaluator::text).toList();
          return String.join(text(v.get(1)), parts);
        }
      case "urldecode":
        try {
          return URLDecoder.decode(text(a), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
          return text(a);
        }
      case "mvdedup", "mvsort", "mvzip", "mvrange":
        return MultivalueFunctions.apply(function, v);
      case "mvfind":
        {
          Pattern regex = pattern(text(v.get(1)));
          if (regex == null) {
            return null;
          }
          List<Object> all = values(a);
          try {
            for (int i = 0; i < all.size(); i++) {
              if (regex.matcher(guarded(text(all.get(i)))).find()) {
                return (long) i;
              }
            }
          } catch (StoppableText.Stopped stopped) {
            return null;
          }
          return null;
        }
      case "printf":
        return Printf.format(v);
      case "md5":
        return digest("MD5", text(a));
      case "sha1":
        return digest("SHA-1", text(a));
      case "sha512":
        return digest("SHA-512", text(a));
      case "sha256":
        return digest("SHA-256", text(a));
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

  private static Object finite(double value) {
    return Double.isFinite(value) ? value : null;
  }

  private static Object math(String function, Object a) {
    Object x = number(a);
    if (x == null) {
      return null;
    }
    if (x instanceof Long l) {
      switch (function) {
        case "floor", "ceil", "ceiling" -> {
          return l;
        }
        case "abs" -> {
          return l == Long.MIN_VALUE ? null : Math.abs(l);
        }
        default -> {}
      }
    }
    double d = ((Number) x).doubleValue();
    return switch (function) {
      case "floor" -> (long) Math.floor(d);
      case "ceil", "ceiling" -> (long) Math.ceil(d);
      case "abs" -> Math.abs(d);
      case "sqrt" -> finite(Math.sqrt(d));
      case "ln" -> finite(Math.log(d));
      default -> finite(Math.exp(d));
    };
  }

  /** Splunk's substr: 1-based start (negative counts from the end), optional length. */
  private static Object substr(String text, List<Object> v) {
    if (!(number(v.get(1)) instanceof Number startNumber)) {
      return null;
    }
    int length = text.length();
    int start = startNumber.intValue();
    int from = start > 0 ? start - 1 : start < 0 ? Math.max(0, length + start) : 0;
    if (from >= length) {
      return "";
    }
    int to = length;
    if (v.size() > 2) {
      if (!(number(v.get(2)) instanceof Number count)) {
        return null;
      }
      to = (int) Math.min(length, Math.max(from, (long) from + count.longValue()));
    }
    return text.substring(from, to);
  }

  /** Splunk's replacement strings use {@code \1}; Java's use {@code $1}. */
  private static String sedGroups(String replacement) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < replacement.length(); i++) {
      char c = replacement.charAt(i);
      if (c == '\\'
          && i + 1 < replacement.length()
          && Character.isDigit(replacement.charAt(i + 1))) {
        out.append('$').append(replacement.charAt(++i));
      } else if (c == '$' || c == '\\') {
        out.append('\\').append(c);
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static String trim(String function, String text, String characters) {
    int start = 0;
    int end = text.length();
    if (!function.equals("rtrim")) {
      while (start < end && characters.indexOf(text.charAt(start)) >= 0) {
        start++;
      }
    }
    if (!function.equals("ltrim")) {
      while (end > start && characters.indexOf(text.charAt(end - 1)) >= 0) {
        end--;
      }
    }
    return text.substring(start, end);
  }

  private static Object tonumber(Object value, Object base) {
    if (base == null || ((Number) base).intValue() == 10) {
      return number(value);
    }
    try {
      return Long.parseLong(text(value).strip(), ((Number) base).intValue());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Object tostring(Object value, String format) {
    if (format == null) {
      return value instanceof Boolean b ? (b ? "True" : "False") : text(value);
    }
    Object number = number(value);
    if (number == null) {
      return text(value);
    }
    return switch (format) {
      case "hex" -> // Splunk's digits are upper case: tostring(15, "hex") is 0xF
          "0x" + Long.toHexString(((Number) number).longValue()).toUpperCase(java.util.Locale.ROOT);
      case "commas" -> {
        double d = ((Number) number).doubleValue();
        yield number instanceof Long l
            ? String.format(java.util.Locale.ROOT, "%,d", l)
            : String.format(java.util.Locale.ROOT, "%,.2f", d);
      }
      case "duration" -> {
        long seconds = ((Number) number).longValue();
        yield String.format(
            java.util.Locale.ROOT,
            "%02d:%02d:%02d",
            seconds / 3600,
            seconds / 60 % 60,
            seconds % 60);
      }
      default -> text(value);
    };
  }

  private static Object mvindex(List<Object> values, List<Object> v) {
    if (!(number(v.get(1)) instanceof Number startNumber)) {
      return null;
    }
    int size = values.size();
    int start = startNumber.intValue();
    start = start < 0 ? size + start : start;
    int end = start;
    if (v.size() > 2) {
      if (!(number(v.get(2)) instanceof Number endNumber)) {
        return null;
      }
      end = endNumber.intValue() < 0 ? size + endNumber.intValue() : endNumber.intValue();
    }
    if (start < 0 || start >= size || end < start) {
      return null;
    }
    return multivalue(new ArrayList<>(values.subList(start, Math.min(end, size - 1) + 1)));
  }

  private static String digest(String algorithm, String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance(algorithm).digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(algorithm + " is part of every JDK", e);
    }
  }
}
