package io.quarry.ql.exec;

import io.quarry.ql.ast.Expression;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The eval functions Quarry knows and how many arguments each takes. */
public final class EvalFunctions {
  private EvalFunctions() {}

  /** Minimum and maximum argument counts ({@code max} -1: any number). */
  public record Arity(int min, int max) {
    boolean accepts(int count) {
      return count >= min && (max < 0 || count <= max);
    }

    String describe() {
      if (min == max) {
        return min + " argument" + (min == 1 ? "" : "s");
      }
      return max < 0 ? "at least " + min + " arguments" : min + " to " + max + " arguments";
    }
  }

  static final Map<String, Arity> ARITY = arities();

  private static Map<String, Arity> arities() {
    Map<String, Arity> a = new TreeMap<>();
    a.put("if", new Arity(3, 3));
    a.put("case", new Arity(2, -1));
    a.put("coalesce", new Arity(1, -1));
    a.put("null", new Arity(0, 0));
    a.put("true", new Arity(0, 0));
    a.put("false", new Arity(0, 0));
    a.put("isnull", new Arity(1, 1));
    a.put("isnotnull", new Arity(1, 1));
    a.put("isnum", new Arity(1, 1));
    a.put("isstr", new Arity(1, 1));
    a.put("isint", new Arity(1, 1));
    a.put("nullif", new Arity(2, 2));
    a.put("mvdedup", new Arity(1, 1));
    a.put("mvsort", new Arity(1, 1));
    a.put("mvzip", new Arity(2, 3));
    a.put("mvrange", new Arity(2, 3));
    a.put("mvfind", new Arity(2, 2));
    a.put("typeof", new Arity(1, 1));
    a.put("len", new Arity(1, 1));
    a.put("lower", new Arity(1, 1));
    a.put("upper", new Arity(1, 1));
    a.put("substr", new Arity(2, 3));
    a.put("replace", new Arity(3, 3));
    a.put("split", new Arity(2, 2));
    a.put("trim", new Arity(1, 2));
    a.put("ltrim", new Arity(1, 2));
    a.put("rtrim", new Arity(1, 2));
    a.put("tonumber", new Arity(1, 2));
    a.put("todouble", new Arity(1, 2));
    a.put("toint", new Arity(1, 2));
    a.put("tobool", new Arity(1, 1));
    a.put("tostring", new Arity(1, 2));
    a.put("round", new Arity(1, 2));
    a.put("floor", new Arity(1, 1));
    a.put("ceil", new Arity(1, 1));
    a.put("ceiling", new Arity(1, 1));
    a.put("abs", new Arity(1, 1));
    a.put("pow", new Arity(2, 2));
    a.put("sqrt", new Arity(1, 1));
    a.put("log", new Arity(1, 2));
    a.put("ln", new Arity(1, 1));
    a.put("exp", new Arity(1, 1));
    a.put("min", new Arity(1, -1));
    a.put("max", new Arity(1, -1));
    a.put("now", new Arity(0, 0));
    a.put("time", new Arity(0, 0));
    a.put("strftime", new Arity(2, 2));
    a.put("strptime", new Arity(2, 2));
    a.put("relative_time", new Arity(2, 2));
    a.put("match", new Arity(2, 2));
    a.put("like", new Arity(2, 2));
    a.put("cidrmatch", new Arity(2, 2));
    a.put("mvcount", new Arity(1, 1));
    a.put("mvindex", new Arity(2, 3));
    a.put("mvjoin", new Arity(2, 2));
    a.put("mvappend", new Arity(1, -1));
    a.put("mvfilter", new Arity(1, 1));
    a.put("in", new Arity(2, -1));
    a.put("urldecode", new Arity(1, 1));
    a.put("md5", new Arity(1, 1));
    a.put("sha256", new Arity(1, 1));
    a.put("sha1", new Arity(1, 1));
    a.put("sha512", new Arity(1, 1));
    a.put("mvmap", new Arity(2, 2));
    a.put("json_object", new Arity(0, -1));
    a.put("json_array", new Arity(0, -1));
    a.put("json_extract", new Arity(1, -1));
    a.put("json_keys", new Arity(1, 1));
    a.put("json_valid", new Arity(1, 1));
    a.put("spath", new Arity(2, 2));
    a.put("json_set", new Arity(3, -1));
    a.put("json_delete", new Arity(2, -1));
    a.put("json_append", new Arity(3, -1));
    a.put("json_extend", new Arity(3, -1));
    a.put("json_array_to_mv", new Arity(1, 2));
    a.put("mv_to_json_array", new Arity(1, 2));
    a.put("json_extract_exact", new Arity(2, -1));
    a.put("json_set_exact", new Arity(3, -1));
    a.put("json_has_key_exact", new Arity(2, 2));
    a.put("sigfig", new Arity(1, 2));
    a.put("searchmatch", new Arity(1, 1));
    for (String trig :
        List.of(
            "acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "sin", "sinh", "tan",
            "tanh", "exact")) {
      a.put(trig, new Arity(1, 1));
    }
    a.put("atan2", new Arity(2, 2));
    a.put("hypot", new Arity(2, 2));
    a.put("pi", new Arity(0, 0));
    a.put("printf", new Arity(1, -1));
    a.put("random", new Arity(0, 0));
    for (String test : List.of("isbool", "isdouble", "isarray", "isobject", "ismv")) {
      a.put(test, new Arity(1, 1));
    }
    a.put("validate", new Arity(2, -1));
    a.put("ipmask", new Arity(2, 2));
    a.put("sum", new Arity(1, -1));
    a.put("avg", new Arity(1, -1));
    for (String bits : List.of("bit_and", "bit_or", "bit_xor")) {
      a.put(bits, new Arity(2, -1));
    }
    a.put("bit_not", new Arity(1, 2));
    a.put("bit_shift_left", new Arity(2, 2));
    a.put("bit_shift_right", new Arity(2, 2));
    return Map.copyOf(a);
  }

  /**
   * Checks every call in an expression.
   *
   * @return null when all are known with the right number of arguments, else the bad call and why
   */
  public static Problem check(Expression expression) {
    return switch (expression) {
      case Expression.Literal literal -> null;
      case Expression.Field field -> null;
      case Expression.Unary unary -> check(unary.operand());
      case Expression.Binary binary -> {
        Problem left = check(binary.left());
        yield left != null ? left : check(binary.right());
      }
      case Expression.Call call -> {
        Arity arity = ARITY.get(call.function());
        if (arity == null) {
          yield new Problem(
              call.offset(),
              "Unknown eval function '" + call.function() + "'",
              "one of " + String.join(", ", new TreeMap<>(ARITY).keySet()));
        }
        if (!arity.accepts(call.arguments().size())) {
          yield new Problem(
              call.offset(),
              call.function() + "() takes " + arity.describe() + ", not " + call.arguments().size(),
              arity.describe());
        }
        if (call.function().equals("case") && call.arguments().size() % 2 != 0) {
          yield new Problem(
              call.offset(), "case() takes condition, value pairs", "an even number of arguments");
        }
        if ((call.function().equals("json_set")
                || call.function().equals("json_set_exact")
                || call.function().equals("json_append")
                || call.function().equals("json_extend"))
            && call.arguments().size() % 2 == 0) {
          yield new Problem(
              call.offset(),
              call.function() + "() takes a document, then path, value pairs",
              "an odd number of arguments");
        }
        if (call.function().equals("validate") && call.arguments().size() % 2 != 0) {
          yield new Problem(
              call.offset(),
              "validate() takes condition, message pairs",
              "an even number of arguments");
        }
        if (call.function().equals("json_object") && call.arguments().size() % 2 != 0) {
          yield new Problem(
              call.offset(), "json_object() takes key, value pairs", "an even number of arguments");
        }
        if (call.function().equals("searchmatch")) {
          String problem = searchProblem(call.arguments().get(0));
          if (problem != null) {
            yield new Problem(
                call.offset(), "searchmatch(): " + problem, "searchmatch(\"<search>\")");
          }
        }
        if (call.function().equals("sum") || call.function().equals("avg")) {
          for (Expression argument : call.arguments()) {
            if (argument instanceof Expression.Literal(String text)) {
              // Mathematical and Statistical eval functions: sum(1, 2, "3") "returns an error
              // because one of the arguments in the function is a string"; a field's text is read
              yield new Problem(
                  call.offset(),
                  call.function() + "() takes numbers, not the text \"" + text + "\"",
                  "a number, a field or tonumber(\"" + text + "\")");
            }
          }
        }
        if (call.function().equals("tonumber")
            && call.arguments().get(0) instanceof Expression.Literal(String text)) {
          Object base = // the base when it is known now: none (10) or a literal number
              call.arguments().size() == 1
                  ? null
                  : call.arguments().get(1) instanceof Expression.Literal(Object b)
                      ? EvalValues.number(b)
                      : "unknown";
          if (!"unknown".equals(base) && TextFunctions.tonumber(text.strip(), base) == null) {
            // Conversion functions, tonumber: "If the tonumber function can't parse a string to a
            // number, the function returns an error" (a field's value that is none is null); a
            // number with surrounding space is no such string: null, as the reference says
            yield new Problem(
                call.offset(),
                "tonumber(): \"" + text + "\" is not a number",
                "a text that reads as a number in the base");
          }
        }
        if (call.function().equals("mvmap")
            && !(call.arguments().get(0) instanceof Expression.Field)) {
          yield new Problem(
              call.offset(),
              "mvmap()'s first argument must be a field, which its expression reads",
              "mvmap(<field>, <expression>)");
        }
        if ((call.function().equals("match") || call.function().equals("replace"))
            && call.arguments().get(1) instanceof Expression.Literal(String regex)) {
          try {
            java.util.regex.Pattern.compile(regex);
          } catch (java.util.regex.PatternSyntaxException e) {
            yield new Problem(
                call.offset(),
                call.function() + "(): invalid regular expression: " + e.getDescription(),
                "a valid regular expression");
          }
        }
        for (Expression argument : call.arguments()) {
          Problem inner = check(argument);
          if (inner != null) {
            yield inner;
          }
        }
        yield null;
      }
    };
  }

  /** Why searchmatch's argument is not a search in quotes, or null when it is one. */
  private static String searchProblem(Expression argument) {
    if (!(argument instanceof Expression.Literal(String text))) {
      return "the search must be a quoted string";
    }
    try {
      if (SearchMatch.parse(text) == null) {
        return "the search is empty";
      }
    } catch (io.quarry.ql.parser.QueryParseException e) {
      return "not a search: " + e.getMessage();
    }
    return null;
  }

  /** A bad call: where, what is wrong, what was expected. */
  public record Problem(int offset, String message, String expected) {}
}
