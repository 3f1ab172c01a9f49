package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * {@code bin [span=S | bins=N [minspan=S] [start=n] [end=n]] field [AS new]} (also {@code bucket}):
 * replaces a time field by the start of its span, or a number by its range label {@code low-high}.
 * Without a span one is chosen from the data: the smallest usual time span ({@link Span#automatic})
 * or power of ten ({@link Span#automaticWidth}) that gives at most {@code bins} bins, no smaller
 * than {@code minspan}, over the values' range widened to {@code start}/{@code end}.
 *
 * @param span the bin size; empty: chosen from the data
 * @param bins the most bins a chosen span gives (Splunk's default: 100)
 * @param minspan the smallest span to choose
 * @param start the lowest value the chosen bins cover at least (epoch seconds for {@code _time})
 * @param end the value below which the chosen bins cover everything at least
 */
public record BinCommand(
    String field,
    Optional<Span> span,
    int bins,
    Optional<Span> minspan,
    OptionalDouble start,
    OptionalDouble end,
    String as,
    Position position)
    implements Command {
  /** Splunk's default {@code bins}. */
  public static final int DEFAULT_BINS = 100;

  public BinCommand {
    requireNonNull(field, "field is null");
    requireNonNull(span, "span is null");
    requireNonNull(minspan, "minspan is null");
    requireNonNull(start, "start is null");
    requireNonNull(end, "end is null");
    requireNonNull(as, "as is null");
    requireNonNull(position, "position is null");
    if (bins < 1) {
      throw new IllegalArgumentException("bins must be positive: " + bins);
    }
  }

  /** {@code bin span=S field AS as}. */
  public BinCommand(String field, Span span, String as, Position position) {
    this(
        field,
        Optional.of(span),
        DEFAULT_BINS,
        Optional.empty(),
        OptionalDouble.empty(),
        OptionalDouble.empty(),
        as,
        position);
  }

  /** Whether each row bins on its own (a given span); otherwise the span needs every row first. */
  public boolean rowLocal() {
    return span.isPresent();
  }

  @Override
  public String name() {
    return "bin";
  }
}
