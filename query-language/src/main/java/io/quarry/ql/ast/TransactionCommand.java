package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;

/**
 * {@code transaction [f, …] [maxspan=S] [maxpause=S] [maxevents=N] [startswith=F] [endswith=F]
 * [keepevicted=B]}: groups events that share the values of the fields (every event, without fields)
 * into one result per transaction; {@code startswith}/{@code endswith} mark the events that begin
 * and end one, and a transaction missing a required start or end is evicted (dropped, unless {@code
 * keepEvicted}).
 *
 * @param maxSpanMicros the longest a transaction may last (first to last event), or -1 for no limit
 * @param maxPauseMicros the longest gap between consecutive events of a transaction, or -1
 * @param maxEvents the most events in one transaction
 */
public record TransactionCommand(
    List<String> fields,
    long maxSpanMicros,
    long maxPauseMicros,
    long maxEvents,
    java.util.Optional<Filter> startsWith,
    java.util.Optional<Filter> endsWith,
    boolean keepEvicted,
    Position position)
    implements Command {

  /**
   * A {@code startswith}/{@code endswith} filter: a search expression ({@code "action=login"}) or
   * an eval condition ({@code eval(status>=500)}), with the text it was written as.
   *
   * @param spl the value as written after {@code =}, for writing the command back
   */
  public record Filter(String spl, SearchExpression search, Expression condition) {
    public Filter {
      requireNonNull(spl, "spl is null");
      if ((search == null) == (condition == null)) {
        throw new IllegalArgumentException("a filter is a search or an eval condition");
      }
    }
  }

  /** Without start or end filters (the form before them). */
  public TransactionCommand(
      List<String> fields,
      long maxSpanMicros,
      long maxPauseMicros,
      long maxEvents,
      Position position) {
    this(
        fields,
        maxSpanMicros,
        maxPauseMicros,
        maxEvents,
        java.util.Optional.empty(),
        java.util.Optional.empty(),
        false,
        position);
  }

  public TransactionCommand {
    fields = List.copyOf(fields);
    requireNonNull(startsWith, "startsWith is null");
    requireNonNull(endsWith, "endsWith is null");
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
