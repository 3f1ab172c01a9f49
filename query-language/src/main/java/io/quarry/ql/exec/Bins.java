package io.quarry.ql.exec;

import io.quarry.ql.ast.BinCommand;
import io.quarry.ql.ast.Span;
import java.time.ZoneId;

/**
 * The arithmetic of {@code bin} (and of {@code chart}'s and {@code timechart}'s binned fields): a
 * time ({@code _time}, epoch microseconds) becomes the start of its span; a number the label {@code
 * low-high} of its span; other values are left alone. Without a given span, the span is chosen from
 * the values' range ({@link #chooseSpan}): {@code _time} from Splunk's automatic time spans, any
 * other field a power of ten (see {@link BinCommand}). Binned into another field, {@code _time}'s
 * start is epoch seconds; a field binned into {@code _time} is a time ({@link TimeField}).
 */
final class Bins {
  private Bins() {}

  /**
   * A field's first value binned by {@code span} as {@code command} writes it into its {@code as}
   * field: {@code bin _time as t} gives epoch seconds, {@code bin t as _time} microseconds.
   */
  static Object binned(BinCommand command, Span span, Object value, ZoneId zone) {
    Object binned = bin(span, command.field(), value, zone);
    if (binned != null && TimeField.is(command.field()) != TimeField.is(command.as())) {
      binned = TimeField.is(command.field()) ? TimeField.seconds(binned) : TimeField.micros(binned);
    }
    return binned;
  }

  /**
   * Where a value of {@code command}'s field lies on the axis spans cut: microseconds for {@code
   * _time}, else its number (NaN: not a number; neither it nor an infinity is part of the range).
   */
  static double position(BinCommand command, Object value) {
    if (isTime(command) && value instanceof Long micros) {
      return micros;
    }
    return Values.toNumber(value);
  }

  private static boolean isTime(BinCommand command) {
    return command.field().equals("_time");
  }

  /**
   * The span {@code command} (without one given) bins with when its field's values ({@link
   * #position}) range from {@code low} to {@code high}.
   */
  static Span chooseSpan(BinCommand command, double low, double high, ZoneId zone) {
    boolean isTime = isTime(command);
    double scale = isTime ? 1_000_000d : 1d; // start= and end= are in seconds for _time
    double from = Math.min(low, command.start().orElse(Double.POSITIVE_INFINITY) * scale);
    // the bins cover [start, end): end itself need not fit
    double to =
        Math.max(high, Math.nextDown(command.end().orElse(Double.NEGATIVE_INFINITY) * scale));
    if (from > to) { // no value to bin: any span leaves the rows as they are
      return new Span(0, null, 1);
    }
    double minimum = command.minspan().map(Bins::seconds).orElse(0d);
    return isTime
        ? Span.automatic((long) from, (long) to, command.bins(), (long) Math.ceil(minimum), zone)
        : Span.automaticWidth(from, to, command.bins(), minimum);
  }

  /** A {@code minspan} as a number: seconds for a time span, else its width. */
  private static double seconds(Span span) {
    return span.isTime() ? span.amount() * span.unit().getDuration().getSeconds() : span.width();
  }

  /**
   * {@code value} of {@code field} binned by {@code span}: a time's span start (epoch microseconds
   * for {@code _time}, else seconds), a number's {@code low-high} label; null for a number that is
   * not finite (an infinity or a NaN from arithmetic: no bin holds it, as {@link TimeField} has no
   * time for it); anything else as it is.
   */
  static Object bin(Span span, String field, Object value, ZoneId zone) {
    if (span.isTime() && field.equals("_time") && value instanceof Long micros) {
      return span.floor(micros, zone);
    }
    double number = Values.toNumber(value);
    if (!Double.isFinite(number)) {
      return Double.isNaN(number) && !(value instanceof Double) ? value : null;
    }
    if (span.isTime()) {
      return TimeField.secondsOf(span.floor((long) Math.floor(number * 1_000_000d), zone));
    }
    double index = Math.floor(number / span.width());
    return Values.toText(span.multiple(index)) + "-" + Values.toText(span.multiple(index + 1));
  }
}
