package io.quarry.ql.exec;

import java.util.List;

/**
 * The bitwise eval functions of Splunk's Search Reference ("Bitwise functions"): {@code bit_and},
 * {@code bit_or}, {@code bit_xor} (two or more values, folded left to right), {@code bit_not(x[,
 * bitmask])} and {@code bit_shift_left}/{@code bit_shift_right(x, offset)}. Only whole numbers from
 * 0 to 2^53-1 are bit strings: a value outside that range, a fraction, a text that is not such a
 * number or a multivalue makes the call null, as the reference says ("numbers that are negative or
 * greater than 53 bits return null"). Decisions where the reference says nothing: {@code bit_not}
 * without a bitmask inverts all 53 bits; a shift whose answer needs more than 53 bits, or an offset
 * outside 0..53, is null. Each is bound to its arguments after the first; arguments are never null
 * here (a null argument makes the call null first).
 */
final class BitFunctions {
  /** The largest bit string: 53 ones, the whole numbers a double holds exactly. */
  static final long ALL_BITS = (1L << 53) - 1;

  private BitFunctions() {}

  /** {@code function} with its arguments after the first fixed to {@code rest}, or null. */
  static BoundFunction bind(String function, List<Object> rest) {
    switch (function) {
      case "bit_and", "bit_or", "bit_xor" -> {
        long folded = function.equals("bit_and") ? ALL_BITS : 0;
        for (Object value : rest) {
          long bits = bits(value);
          if (bits < 0) {
            return x -> null;
          }
          folded = combine(function, folded, bits);
        }
        long others = folded;
        return x -> {
          long bits = bits(x);
          return bits < 0 ? null : (Object) combine(function, bits, others);
        };
      }
      case "bit_not" -> {
        long mask = rest.isEmpty() ? ALL_BITS : bits(rest.get(0));
        return x -> {
          long bits = bits(x);
          return bits < 0 || mask < 0 ? null : (Object) (~bits & mask);
        };
      }
      case "bit_shift_left", "bit_shift_right" -> {
        long offset = bits(rest.get(0));
        boolean left = function.equals("bit_shift_left");
        return x -> {
          long bits = bits(x);
          if (bits < 0 || offset < 0 || offset > 53) {
            return null;
          }
          if (!left) {
            return bits >>> offset;
          }
          long shifted = bits << offset;
          return shifted >>> offset == bits && shifted <= ALL_BITS ? (Object) shifted : null;
        };
      }
      default -> {
        return null;
      }
    }
  }

  private static long combine(String function, long a, long b) {
    return switch (function) {
      case "bit_and" -> a & b;
      case "bit_or" -> a | b;
      default -> a ^ b;
    };
  }

  /** The value as a bit string (0 to 2^53-1), or -1 when it is not one. */
  static long bits(Object value) {
    Object number = EvalValues.number(value);
    if (number instanceof Long l) {
      return l >= 0 && l <= ALL_BITS ? l : -1;
    }
    if (number instanceof Double d && d >= 0 && d <= ALL_BITS && d == Math.rint(d)) {
      return d.longValue();
    }
    return -1;
  }
}
