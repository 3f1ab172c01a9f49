package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.Optional;

/**
 * {@code | tstats <aggregations> [where <search>] [by <fields> [span=<span>]]}: statistics over
 * what the index holds — default fields, index-time fields, {@code _time} — without reading events.
 * The planner runs it as the search {@code where} followed by {@code bin _time span=…} (with a
 * span) and {@code stats}, reading only indexed fields.
 *
 * @param where the search that selects the events ({@code index=…}, time modifiers, indexed fields
 *     and terms), if any
 * @param stats the aggregations and by-fields
 * @param span the {@code _time} bucket of {@code by _time span=…}, if given
 */
public record TstatsCommand(
    Optional<SearchExpression> where, StatsCommand stats, Optional<Span> span, Position position)
    implements Command {
  public TstatsCommand {
    requireNonNull(where, "where is null");
    requireNonNull(stats, "stats is null");
    requireNonNull(span, "span is null");
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "tstats";
  }
}
