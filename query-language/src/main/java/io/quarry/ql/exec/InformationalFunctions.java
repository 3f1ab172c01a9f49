package io.quarry.ql.exec;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The Search Reference's "Informational functions" over one value: {@code isnull}, {@code
 * isnotnull}, {@code isnum} (a number: a field's "2.5" is typed one, {@link EvalValues#typed}),
 * {@code isstr}, {@code isint} (a whole number, a finite double without a fraction part too, of any
 * magnitude: {@code isint(1e19)}), {@code typeof} ({@code Invalid} for null, {@code Bool}, {@code
 * Number}, {@code Multivalue} or {@code String}) and the type tests Quarry's values answer beyond
 * those: {@code isbool} (a Boolean, such as a comparison gives; the text "true" of a field is no
 * Boolean, as the reference warns), {@code isdouble} (a number that is not {@code isint}: a
 * fraction, an infinity, a NaN; a field's "2.5" too, as for {@code isnum}: {@link
 * EvalValues#typed}), {@code isarray} (a multivalue, which Quarry's JSON functions read as an
 * array, or the text of a JSON array: {@code isarray("[1, 2, 3]")} is true) and {@code isobject}
 * (the text of a JSON object) and {@code ismv} (a multivalue: two values or more; the reference's
 * {@code ismv(split("1, 2, 3", ","))} is true). A null value is none of them: false.
 */
final class InformationalFunctions {
  private InformationalFunctions() {}

  /** Whether the function names one of these tests. */
  static boolean tests(String function) {
    return switch (function) {
      case "isbool", "isdouble", "isarray", "isobject", "ismv" -> true;
      default -> false;
    };
  }

  /** The answer of {@code function} (one of these functions) for {@code value}. */
  static Object apply(String function, Object value) {
    return switch (function) {
      case "isnull" -> value == null;
      case "isnotnull" -> value != null;
      case "isnum" -> value instanceof Long || value instanceof Double;
      case "isstr" -> value instanceof String;
      case "isint" -> value instanceof Long || value instanceof Double d && isIntegral(d);
      // every other number: a double with a fraction, an infinity or a NaN. A whole double is the
      // whole number (Values.isWhole), whether the page held it as a long or a double, and so is
      // one past a long's range (1e19): isint and isdouble answer every number, never both
      case "isdouble" -> value instanceof Double d && !isIntegral(d);
      case "typeof" -> typeOf(value);
      case "isbool" -> value instanceof Boolean;
      case "isarray" -> value != null && json(value).isArray();
      case "isobject" -> value instanceof String && json(value).isObject();
      case "ismv" -> value instanceof java.util.List<?>;
      default -> throw new IllegalStateException("not an informational function: " + function);
    };
  }

  /** A finite double without a fraction part, of any magnitude (1e19 and 1e300 too). */
  private static boolean isIntegral(double d) {
    return Double.isFinite(d) && d == Math.rint(d);
  }

  private static String typeOf(Object a) {
    return a == null
        ? "Invalid"
        : a instanceof Boolean
            ? "Bool"
            : EvalValues.number(a) != null && !(a instanceof String)
                ? "Number"
                : a instanceof java.util.List ? "Multivalue" : "String";
  }

  private static JsonNode json(Object value) {
    return JsonFunctions.node(value);
  }
}
