package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;

/**
 * {@code fieldsummary [maxvals=N]}: one row per field of the input with its count, distinct count,
 * numeric statistics and most common values (Splunk's command; what a fields sidebar shows).
 */
public record FieldSummaryCommand(int maxValues, Position position) implements Command {
  /** Splunk's default number of top values per field. */
  public static final int DEFAULT_MAX_VALUES = 100;

  public FieldSummaryCommand {
    if (maxValues < 0) {
      throw new IllegalArgumentException("maxvals must not be negative: " + maxValues);
    }
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "fieldsummary";
  }
}
