package io.quarry.ql.exec;

import static io.quarry.ql.exec.EvalValues.anyMatch;
import static io.quarry.ql.exec.EvalValues.comparison;
import static io.quarry.ql.exec.EvalValues.text;

import java.util.List;

/**
 * The Search Reference's "Comparison and Conditional functions" that are applied to their
 * arguments' values: {@code null()}, {@code true()}, {@code false()}, {@code validate}, {@code
 * nullif}, {@code in} (answered over the whole argument list, a null argument allowed) and {@code
 * cidrmatch} (null when an argument is, bound to its fixed argument). The ones that read their
 * argument expressions themselves ({@code if}, {@code case}, {@code coalesce}, {@code searchmatch})
 * are the evaluator's; {@code like} and {@code match} are {@link RegexFunctions}'.
 */
final class ConditionalFunctions {
  private ConditionalFunctions() {}

  /** The value of {@code function} (one of the six above) over its arguments' values. */
  static Object apply(String function, List<Object> v) {
    Object a = v.isEmpty() ? null : v.get(0);
    switch (function) {
      case "null":
        return null;
      case "true":
        return true;
      case "false":
        return false;
      case "validate":
        for (int i = 0; i + 1 < v.size(); i += 2) {
          if (!Boolean.TRUE.equals(v.get(i))) {
            return v.get(i + 1); // the first condition that does not hold (a null one neither)
          }
        }
        return null;
      case "nullif":
        return a != null && v.get(1) != null && text(a).equals(text(v.get(1))) ? null : a;
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
      default:
        throw new IllegalStateException("not a conditional function: " + function);
    }
  }

  /** {@code cidrmatch(cidr, ip)} for each {@code cidr}, {@code ip} fixed (none null). */
  static BoundFunction cidrMatchOf(Object ip) {
    return cidr -> Cidr.parse(text(cidr)).map(c -> cidrMatch(c).apply(ip)).orElse(false);
  }

  /**
   * {@code cidrmatch(cidr, ip)} for each {@code ip}, the block {@code cidr} read once: false for
   * every address when it is no CIDR block.
   */
  static BoundFunction cidrMatchIn(Object cidr) {
    return Cidr.parse(text(cidr))
        .<BoundFunction>map(ConditionalFunctions::cidrMatch)
        .orElse(ip -> false);
  }

  /** {@code cidrmatch(cidr, ip)} for one parsed CIDR block. */
  private static BoundFunction cidrMatch(Cidr cidr) {
    return ip -> cidr.contains(text(ip));
  }
}
