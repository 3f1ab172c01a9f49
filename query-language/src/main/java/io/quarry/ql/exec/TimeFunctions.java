package io.quarry.ql.exec;

import static io.quarry.ql.exec.EvalValues.number;
import static io.quarry.ql.exec.EvalValues.text;

import io.quarry.ql.time.TimeModifiers;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;

/**
 * The time eval functions that read their arguments: {@code strftime}, {@code strptime} and {@code
 * relative_time} ({@code now()} and {@code time()} are the evaluator's: they need the search's
 * time). Times are epoch seconds; formats are {@link Strftime}'s, in the search's zone. Arguments
 * are never null here (a null argument makes the call null first).
 */
final class TimeFunctions {
  private TimeFunctions() {}

  static Object apply(String function, List<Object> v, ZoneId zone) {
    Object a = v.get(0);
    switch (function) {
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
      default:
        throw new IllegalStateException("not a time function: " + function);
    }
  }
}
