package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;

/**
 * {@code transaction [f, …] [maxspan=S] [maxpause=S] [maxevents=N] [startswith=F] [endswith=F]
 * [keepevicted=B] [mvlist=B|f,…] [connected=B] [unifyends=B] [keeporphans=B]}: groups events that
 * share the values of the fields (every event, without fields) into one result per transaction;
 * {@code startswith}/{@code endswith} mark the events that begin and end one, and a transaction
 * missing a required start or end is evicted (dropped, unless {@code keepEvicted}).
 *
 * @param maxSpanMicros the longest a transaction may last (first to last event), or -1 for no limit
 * @param maxPauseMicros the longest gap between consecutive events of a transaction, or -1
 * @param maxEvents the most events in one transaction
 * @param mvList the fields whose values are listed as the events hold them (every value, in time
 *     order) rather than as a sorted set; {@code ["*"]} for every field, empty for none
 * @param connected whether an event holding a field its transaction has no value for yet starts a
 *     new transaction (true) rather than joining it
 * @param unifyEnds whether start and end events must also share a field value (Quarry always
 *     requires it; kept for the SPL text)
 * @param keepOrphans whether events that are part of no transaction are passed on, marked {@code
 *     _txn_orphan=1}
 */
public record TransactionCommand(
    List<String> fields,
    long maxSpanMicros,
    long maxPauseMicros,
    long maxEvents,
    java.util.Optional<Filter> startsWith,
    java.util.Optional<Filter> endsWith,
    boolean keepEvicted,
    List<String> mvList,
    boolean connected,
    boolean unifyEnds,
    boolean keepOrphans,
    Position position)
    implements Command {

  /** With Splunk's defaults for the options after {@code keepevicted}. */
  public TransactionCommand(
      List<String> fields,
      long maxSpanMicros,
      long maxPauseMicros,
      long maxEvents,
      java.util.Optional<Filter> startsWith,
      java.util.Optional<Filter> endsWith,
      boolean keepEvicted,
      Position position) {
    this(
        fields,
        maxSpanMicros,
        maxPauseMicros,
        maxEvents,
        startsWith,
        endsWith,
        keepEvicted,
        List.of(),
        true,
        false,
        false,
        position);
  }

  /** Whether {@code field}'s values are listed ({@code mvlist}) rather than a sorted set. */
  public boolean listsValues(String field) {
    return mvList.contains("*") || mvList.contains(field);
  }

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
    mvList = List.copyOf(mvList);
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
