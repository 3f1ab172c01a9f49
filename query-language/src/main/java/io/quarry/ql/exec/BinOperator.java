package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.BinCommand;
import io.quarry.ql.ast.Span;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code bin}: a time field ({@code _time}, epoch microseconds) becomes the start of its span; a
 * number becomes the label {@code low-high} of its span; other values are left alone.
 */
public final class BinOperator implements RowSink {
  private final BinCommand command;
  private final ZoneId zone;
  private final RowSink downstream;

  public BinOperator(BinCommand command, ZoneId zone, RowSink downstream) {
    this.command = requireNonNull(command, "command is null");
    this.zone = requireNonNull(zone, "zone is null");
    this.downstream = requireNonNull(downstream, "downstream is null");
  }

  @Override
  public boolean accept(Row row) {
    List<Object> values = row.values(command.field());
    if (values.isEmpty()) {
      return downstream.accept(row);
    }
    Object binned = bin(command.span(), command.field(), values.get(0), zone);
    Map<String, Object> assigned = new HashMap<>();
    assigned.put(command.as(), binned);
    return downstream.accept(new AssignedRow(row, assigned));
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
      return Evaluator.secondsOf(span.floor((long) Math.floor(seconds * 1_000_000d), zone));
    }
    double number = Values.toNumber(value);
    if (Double.isNaN(number)) {
      return value;
    }
    double low = Math.floor(number / span.width()) * span.width();
    return Values.toText(low) + "-" + Values.toText(low + span.width());
  }

  @Override
  public void finish() {
    downstream.finish();
  }
}
