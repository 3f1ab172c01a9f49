package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.BinCommand;
import io.quarry.ql.ast.Span;
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
        new AssignedRow(
            row, Map.of(command.as(), Bins.binned(command, span, values.get(0), zone))));
  }

  /** Where a value lies on the axis spans cut: microseconds for {@code _time}, else its number. */
  private double position(Object value) {
    return Bins.position(command, value);
  }

  /** The span the held rows' range asks for. */
  private Span chooseSpan() {
    return Bins.chooseSpan(command, low, high, zone);
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
