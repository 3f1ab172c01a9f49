package io.quarry.ql.ast;

import java.util.Optional;

/**
 * A generating command over metric indexes ({@code mstats}, {@code mcatalog}, {@code mpreview}).
 * Its where clause names the indexes ({@code index=}), may bound the time ({@code earliest=},
 * {@code latest=}) and filters series by their dimensions and {@code metric_name}; the planner
 * lifts the first two out as for a search.
 */
public sealed interface MetricCommand extends Command
    permits MstatsCommand, McatalogCommand, MpreviewCommand {
  /** The where clause: indexes, time bounds and the series filter. */
  Optional<SearchExpression> where();

  /** The command as SPL (what a parse of it gives back). */
  String spl();
}
