package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.BinCommand;
import io.quarry.ql.ast.Span;
import java.math.BigDecimal;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code bin}: a time field ({@code _time}, epoch microseconds) becomes the start of its span; a
 * number becomes the label {@code low-high} of its span; other values are left alone. With a given
 * span each row is binned as it passes; without one the rows are held (counted against the search's
 * memory) until the last, whose range chooses the span: {@code _time} from Splunk's automatic time
 * spans, any other field a power of ten (see {@link BinCommand}). Binned into another field, {@code
 * _time}'s start is epoch seconds; a field binned into {@code _time} is a time ({@link TimeField}).
 */
public final class BinOperator implements RowSink {
  private final BinCommand command;
  private final ZoneId zone;
  private final RowSink downstream;
  private final MemoryTracker memory;

  /** Rows held until the span is known (without a given span). */
  private final List<Row> held = new ArrayList<>();

  private double low = Double.POSITIVE_INFINITY;
  private double high = Double.NEGATIVE_INFINITY;

  public BinOperator(BinCommand command, ZoneId zone, RowSink downstream, MemoryTracker memory) {
    this.command = requireNonNull(command, "command is null");
    this.zone = requireNonNull(zone, "zone is null");
    this.downstream = requireNonNull(downstream, "downstream is null");
    this.memory = requireNonNull(memory, "memory is null");
  }

  @Override
  public boolean accept(Row row) {
    if (command.span().isPresent()) {
      return binned(row, command.span().get());
    }
    List<Object> values = row.values(command.field());
    if (!values.isEmpty()) {
      double value = position(values.get(0));
      if (!Double.isNaN(value)) {
        low = Math.min(low, value);
        high = Math.max(high, value);
      }
    }
    held.add(row);
    memory.add(MemoryTracker.ROW_BYTES);
    return true;
  }

  /** {@code row} with its field binned by {@code span}. */
  private boolean binned(Row row, Span span) {
    List<Object> values = row.values(command.field());
    if (values.isEmpty()) {
      return downstream.accept(row);
    }
    return downstream.accept(
        new AssignedRow(row, Map.of(command.as(), binned(command, span, values.get(0), zone))));
  }

  /**
   * A field's first value binned by {@code span} as {@code command} writes it into its {@code as}
   * field: {@code bin _time as t} gives epoch seconds, {@code bin t as _time} microseconds.
   */
  static Object binned(BinCommand command, Span span, Object value, ZoneId zone) {
    Object binned = bin(span, command.field(), value, zone);
    if (TimeField.is(command.field()) != TimeField.is(command.as())) {
      binned = TimeField.is(command.field()) ? TimeField.seconds(binned) : TimeField.micros(binned);
    }
    return binned;
  }

  /** Where a value lies on the axis spans cut: microseconds for {@code _time}, else its number. */
  private double position(Object value) {
    return position(command, value);
  }

  /**
   * Where a value of {@code command}'s field lies on the axis spans cut: microseconds for {@code
   * _time}, else its number (NaN: not a number, no part of the range).
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

  /** The span the held rows' range asks for. */
  private Span chooseSpan() {
    return chooseSpan(command, low, high, zone);
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
    double minimum = command.minspan().map(BinOperator::seconds).orElse(0d);
    return isTime
        ? Span.automatic((long) from, (long) to, command.bins(), (long) Math.ceil(minimum), zone)
        : Span.automaticWidth(from, to, command.bins(), minimum);
  }

  /** A {@code minspan} as a number: seconds for a time span, else its width. */
  private static double seconds(Span span) {
    return span.isTime() ? span.amount() * span.unit().getDuration().getSeconds() : span.width();
  }

  static Object bin(Span span, String field, Object value, ZoneId zone) {
    if (span.isTime()) {
      if (field.equals("_time") && value instanceof Long micros) {
        return span.floor(micros, zone);
      }
      double seconds = Values.toNumber(value);
      if (Double.isNaN(seconds)) {
        return value;
      }
      return TimeField.secondsOf(span.floor((long) Math.floor(seconds * 1_000_000d), zone));
    }
    double number = Values.toNumber(value);
    if (Double.isNaN(number)) {
      return value;
    }
    double index = Math.floor(number / span.width());
    return Values.toText(multiple(index, span.width()))
        + "-"
        + Values.toText(multiple(index + 1, span.width()));
  }

  /** {@code index × width} as the decimal it stands for ({@code 3 × 0.1} is 0.3, not 0.300…04). */
  private static double multiple(double index, double width) {
    double product = index * width;
    if (product == Math.rint(product) && width == Math.rint(width)) {
      return product;
    }
    return new BigDecimal(Double.toString(width))
        .multiply(new BigDecimal(Double.toString(index)))
        .doubleValue();
  }

  @Override
  public void finish() {
    if (command.span().isEmpty()) {
      Span span = chooseSpan();
      for (int i = 0; i < held.size(); i++) {
        Row row = held.get(i);
        held.set(i, null);
        if (!binned(row, span)) {
          break;
        }
      }
      held.clear();
      memory.release();
    }
    downstream.finish();
  }
}
