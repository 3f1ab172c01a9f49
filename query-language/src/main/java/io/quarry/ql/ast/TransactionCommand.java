package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;

/**
 * {@code transaction f, … [maxspan=S] [maxpause=S] [maxevents=N]}: groups events that share the
 * values of the fields into one result per transaction.
 *
 * @param maxSpanMicros the longest a transaction may last (first to last event), or -1 for no limit
 * @param maxPauseMicros the longest gap between consecutive events of a transaction, or -1
 * @param maxEvents the most events in one transaction
 */
public record TransactionCommand(
    List<String> fields, long maxSpanMicros, long maxPauseMicros, long maxEvents, Position position)
    implements Command {
  public TransactionCommand {
    fields = List.copyOf(fields);
    if (fields.isEmpty()) {
      throw new IllegalArgumentException("transaction needs at least one field");
    }
    if (maxEvents < 1) {
      throw new IllegalArgumentException("maxevents must be at least 1: " + maxEvents);
    }
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "transaction";
  }
}
