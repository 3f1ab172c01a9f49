package io.quarry.ql.exec;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The eval functions over multivalues that need nothing of the evaluator: {@code mvindex}, {@code
 * mvjoin}, {@code mvdedup}, {@code mvsort}, {@code mvzip} and {@code mvrange}, as Splunk's Search
 * Reference defines them. Arguments are never null here (a null argument makes the call null
 * first).
 */
public final class MultivalueFunctions {
  /** The most values {@code mvrange} makes (a typo in a step should not fill the heap). */
  public static final int MAX_RANGE = 10_000;

  private MultivalueFunctions() {}

  static Object apply(String function, List<Object> arguments) {
    return switch (function) {
      case "mvdedup" -> multivalue(new ArrayList<>(new LinkedHashSet<>(values(arguments.get(0)))));
      case "mvsort" -> {
        List<Object> sorted = new ArrayList<>();
        for (Object value : values(arguments.get(0))) {
          sorted.add(Values.toText(value));
        }
        sorted.sort(null); // lexicographically, as Splunk sorts: "10" before "9"
        yield multivalue(sorted);
      }
      case "mvzip" -> {
        List<Object> left = values(arguments.get(0));
        List<Object> right = values(arguments.get(1));
        String delimiter = arguments.size() > 2 ? Values.toText(arguments.get(2)) : ",";
        List<Object> zipped = new ArrayList<>();
        for (int i = 0; i < Math.min(left.size(), right.size()); i++) {
          zipped.add(Values.toText(left.get(i)) + delimiter + Values.toText(right.get(i)));
        }
        yield multivalue(zipped);
      }
      case "mvrange" -> range(arguments);
      case "mvindex" -> mvindex(values(arguments.get(0)), arguments);
      case "mvjoin" -> {
        List<String> parts = values(arguments.get(0)).stream().map(EvalValues::text).toList();
        yield String.join(EvalValues.text(arguments.get(1)), parts);
      }
      default -> throw new IllegalStateException("not a multivalue function: " + function);
    };
  }

  private static Object mvindex(List<Object> values, List<Object> v) {
    if (!(EvalValues.number(v.get(1)) instanceof Number startNumber)) {
      return null;
    }
    int size = values.size();
    int start = startNumber.intValue();
    start = start < 0 ? size + start : start;
    int end = start;
    if (v.size() > 2) {
      if (!(EvalValues.number(v.get(2)) instanceof Number endNumber)) {
        return null;
      }
      end = endNumber.intValue() < 0 ? size + endNumber.intValue() : endNumber.intValue();
    }
    if (start < 0 || start >= size || end < start) {
      return null;
    }
    return multivalue(new ArrayList<>(values.subList(start, Math.min(end, size - 1) + 1)));
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
