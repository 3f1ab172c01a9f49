package io.quarry.ql.exec;

import static io.quarry.ql.exec.EvalValues.number;
import static io.quarry.ql.exec.EvalValues.text;

import io.quarry.ql.time.TimeModifiers;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;

/**
 * The time eval functions: {@code now()} (the search's time, whole seconds) and {@code time()} (the
 * wall clock when it is called, to the millisecond), {@link #clock}; and those that read their
 * arguments, {@code strftime}, {@code strptime} and {@code relative_time}, each bound to its
 * arguments after the first ({@link BoundFunction}). Times are epoch seconds (a number that is no
 * time, an infinity among them, gives null); formats are {@link Strftime}'s, in the search's zone.
 * Arguments are never null here (a null argument makes the call null first).
 */
final class TimeFunctions {
  private TimeFunctions() {}

  /** {@code now()} of a search at {@code now}, or {@code time()}: epoch seconds. */
  static Object clock(String function, Instant now) {
    return switch (function) {
      case "now" -> (Object) now.getEpochSecond();
      case "time" -> (Object) (Instant.now().toEpochMilli() / 1000.0);
      default -> throw new IllegalStateException("not now or time: " + function);
    };
  }

  /**
   * {@code function} with its arguments after the first fixed to {@code rest} (none null), or null
   * when it is not a time function: the format read once.
   */
  static BoundFunction bind(String function, List<Object> rest, ZoneId zone) {
    switch (function) {
      case "strftime":
        {
          Strftime.Compiled format = Strftime.compile(text(rest.get(0)));
          return a -> {
            double seconds = seconds(a);
            if (Double.isNaN(seconds)) {
              return null;
            }
            long micros = (long) Math.floor(seconds * 1_000_000d);
            return format.format(micros, zone);
          };
        }
      case "strptime":
        {
          java.util.function.Function<String, Long> parser =
              Strftime.parser(text(rest.get(0)), zone);
          return a -> {
            Long micros = parser.apply(text(a));
            return micros == null ? null : TimeField.secondsOf(micros);
          };
        }
      case "relative_time":
        {
          String modifier = text(rest.get(0));
          return a -> {
            double seconds = seconds(a);
            if (Double.isNaN(seconds)) {
              return null;
            }
            long base = (long) (seconds * 1_000_000d);
            try {
              return TimeField.secondsOf(
                  TimeModifiers.resolveMicros(
                      modifier, Instant.ofEpochSecond(0, base * 1000), zone));
            } catch (IllegalArgumentException e) {
              return null;
            }
          };
        }
      default:
        return null;
    }
  }

  /**
   * A value as epoch seconds, or NaN when it is no time: not a number, or a number not finite or
   * past what a long holds in microseconds ({@code relative_time(1e308*10, "-1d")} is null).
   */
  private static double seconds(Object value) {
    Object number = number(value);
    if (number == null) {
      return Double.NaN;
    }
    double seconds = ((Number) number).doubleValue();
    return Math.abs(seconds * 1_000_000d) < 0x1p63 ? seconds : Double.NaN;
  }
}
