package io.quarry.ql.exec;

import io.quarry.ql.ast.SortKey;
import java.util.Comparator;
import java.util.List;

/**
 * Splunk's {@code sort} order over the key values read for a list of {@link SortKey}s: a missing
 * key (or, under {@code num()}, a value that is not a number) after the values that have it, in
 * either direction; otherwise numbers first, numerically, then text ({@code auto}, {@code num}), or
 * everything as text ({@code str}); a descending key reverses its order. Ties are left to the
 * caller ({@link PageSort} keeps arrival order).
 */
final class SortOrder {
  private SortOrder() {}

  /**
   * The order of the key values read for {@code keys}, one array per row (ties are left to the
   * caller, which keeps arrival order).
   */
  static Comparator<Object[]> keyOrder(List<SortKey> keys) {
    return (a, b) -> {
      for (int i = 0; i < keys.size(); i++) {
        int c = compare(keys.get(i), a[i], b[i]);
        if (c != 0) {
          return c;
        }
      }
      return 0;
    };
  }

  /** Compares two values of one key, direction included; missing values last. */
  static int compare(SortKey key, Object a, Object b) {
    if (key.mode() == SortKey.Mode.NUM) {
      // num(): a value that is not a number has no place in the order, like a missing one
      a = a != null && !(a instanceof Double) && Double.isNaN(Values.toNumber(a)) ? null : a;
      b = b != null && !(b instanceof Double) && Double.isNaN(Values.toNumber(b)) ? null : b;
    }
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : 1) : -1;
    }
    int c = compareValues(key.mode(), a, b);
    return key.descending() ? -c : c;
  }

  /**
   * Splunk's orders: {@code auto} (and {@code num}) put numbers first, numerically (a NaN from
   * arithmetic after every other number, as {@link Double#compare}), then text; {@code str}
   * compares everything as text. Text compares lexicographically by code unit, so upper case sorts
   * before lower case, as Splunk's UTF-8 order does.
   */
  static int compareValues(SortKey.Mode mode, Object a, Object b) {
    if (mode != SortKey.Mode.STR) {
      double x = Values.toNumber(a);
      double y = Values.toNumber(b);
      boolean xNumber = !Double.isNaN(x) || a instanceof Double; // a NaN: after every number
      boolean yNumber = !Double.isNaN(y) || b instanceof Double;
      if (xNumber && yNumber) {
        return Double.compare(x, y);
      }
      if (xNumber != yNumber) {
        return xNumber ? -1 : 1;
      }
    }
    return Values.toText(a).compareTo(Values.toText(b));
  }
}
