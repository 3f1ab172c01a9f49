package io.quarry.ql.exec;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The type tests of the Search Reference's "Informational functions" that Quarry's values answer
 * beyond {@code isnum}/{@code isstr}/{@code isint}: {@code isbool} (a Boolean, such as a comparison
 * gives; the text "true" of a field is no Boolean, as the reference warns), {@code isdouble} (a
 * number with a fraction part's type: a {@code Double}, a field's "2.5" too, as for {@code isnum}:
 * {@link EvalValues#typed}), {@code isarray} (a multivalue, which Quarry's JSON functions read as
 * an array, or the text of a JSON array: {@code isarray("[1, 2, 3]")} is true) and {@code isobject}
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

  static boolean apply(String function, Object value) {
    return switch (function) {
      case "isbool" -> value instanceof Boolean;
      case "isdouble" -> value instanceof Double;
      case "isarray" -> value != null && json(value).isArray();
      case "isobject" -> value instanceof String && json(value).isObject();
      case "ismv" -> value instanceof java.util.List<?>;
      default -> throw new IllegalStateException("not a type test: " + function);
    };
  }

  private static JsonNode json(Object value) {
    return JsonFunctions.node(value);
  }
}
