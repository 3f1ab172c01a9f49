package io.quarry.ql.exec;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The eval functions over multivalues that need nothing of the evaluator: {@code mvindex}, {@code
 * mvjoin}, {@code mvdedup}, {@code mvsort}, {@code mvzip} and {@code mvrange}, as Splunk's Search
 * Reference defines them, each bound to its arguments after the first ({@link BoundFunction}),
 * arguments never null there (a null argument makes the call null first); and {@code mvcount} and
 * {@code mvappend}, applied to the whole argument list ({@link #apply}), a null argument allowed.
 */
public final class MultivalueFunctions {
  /** The most values {@code mvrange} makes (a typo in a step should not fill the heap). */
  public static final int MAX_RANGE = 10_000;

  private MultivalueFunctions() {}

  /**
   * {@code mvcount(value)} (null for null) or {@code mvappend(values…)} (every value of every
   * argument, nulls left out) over its arguments' values.
   */
  static Object apply(String function, List<Object> arguments) {
    switch (function) {
      case "mvcount":
        {
          Object a = arguments.isEmpty() ? null : arguments.get(0);
          return a == null ? null : (long) EvalValues.values(a).size();
        }
      case "mvappend":
        {
          List<Object> all = new ArrayList<>();
          arguments.forEach(x -> all.addAll(EvalValues.values(x)));
          return EvalValues.multivalue(all);
        }
      default:
        throw new IllegalStateException("not mvcount or mvappend: " + function);
    }
  }

  /**
   * {@code function} with its arguments after the first fixed to {@code rest} (none null), or null
   * when it is not one of these: indexes and delimiters read once.
   */
  static BoundFunction bind(String function, List<Object> rest) {
    return switch (function) {
      case "mvdedup" -> a -> multivalue(new ArrayList<>(new LinkedHashSet<>(values(a))));
      case "mvsort" ->
          a -> {
            List<Object> sorted = new ArrayList<>();
            for (Object value : values(a)) {
              sorted.add(Values.toText(value));
            }
            sorted.sort(null); // lexicographically, as Splunk sorts: "10" before "9"
            return multivalue(sorted);
          };
      case "mvzip" -> {
        String delimiter = rest.size() > 1 ? Values.toText(rest.get(1)) : ",";
        yield a -> {
          List<Object> left = values(a);
          List<Object> right = values(rest.get(0));
          List<Object> zipped = new ArrayList<>();
          for (int i = 0; i < Math.min(left.size(), right.size()); i++) {
            zipped.add(Values.toText(left.get(i)) + delimiter + Values.toText(right.get(i)));
          }
          return multivalue(zipped);
        };
      }
      case "mvrange" ->
          a -> {
            List<Object> arguments = new ArrayList<>(rest.size() + 1);
            arguments.add(a);
            arguments.addAll(rest);
            return range(arguments);
          };
      case "mvindex" -> mvindex(rest);
      case "mvjoin" -> {
        String delimiter = EvalValues.text(rest.get(0));
        yield a -> String.join(delimiter, values(a).stream().map(EvalValues::text).toList());
      }
      default -> null;
    };
  }

  private static BoundFunction mvindex(List<Object> rest) {
    if (!(EvalValues.number(rest.get(0)) instanceof Number startNumber)) {
      return a -> null;
    }
    Number endNumber = null;
    if (rest.size() > 1) {
      if (!(EvalValues.number(rest.get(1)) instanceof Number n)) {
        return a -> null;
      }
      endNumber = n;
    }
    int first = startNumber.intValue();
    Integer last = endNumber == null ? null : endNumber.intValue();
    return a -> {
      List<Object> values = values(a);
      int size = values.size();
      int start = first < 0 ? size + first : first;
      int end = last == null ? start : last < 0 ? size + last : last;
      if (start < 0 || start >= size || end < start) {
        return null;
      }
      return multivalue(new ArrayList<>(values.subList(start, Math.min(end, size - 1) + 1)));
    };
  }

  /**
   * {@code mvrange(start, end[, step])}: start, start+step, … below end (above, for a step < 0).
   */
  private static Object range(List<Object> arguments) {
    double start = Values.toNumber(arguments.get(0));
    double end = Values.toNumber(arguments.get(1));
    double step = arguments.size() > 2 ? Values.toNumber(arguments.get(2)) : 1;
    if (Double.isNaN(start) || Double.isNaN(end) || Double.isNaN(step) || step == 0) {
      return null;
    }
    boolean whole =
        start == Math.rint(start) && step == Math.rint(step) && Math.abs(start) < 0x1p53;
    List<Object> values = new ArrayList<>();
    for (double x = start; step > 0 ? x < end : x > end; x += step) {
      if (values.size() == MAX_RANGE) {
        break;
      }
      values.add(whole ? (Object) (long) x : (Object) x);
    }
    return multivalue(values);
  }

  private static List<Object> values(Object value) {
    return value instanceof List<?> list ? new ArrayList<>(list) : List.of(value);
  }

  private static Object multivalue(List<Object> values) {
    return switch (values.size()) {
      case 0 -> null;
      case 1 -> values.get(0);
      default -> List.copyOf(values);
    };
  }
}
