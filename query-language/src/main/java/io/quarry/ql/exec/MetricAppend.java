package io.quarry.ql.exec;

import io.quarry.ql.ast.MstatsCommand;
import java.io.IOException;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/** Where a search's {@code mstats prestats=true append=true} reads its points (the server's). */
@FunctionalInterface
public interface MetricAppend {
  /** No metric store: {@code mstats append=true} fails, saying so. */
  MetricAppend NONE =
      (command, pageSize, pages, stopped) -> {
        throw new IllegalArgumentException("mstats append=true needs a server with metric indexes");
      };

  /**
   * Hands every point {@code command} selects (its bound {@link MstatsCommand#scope}) to {@code
   * pages} as typed pages of at most {@code pageSize} positions (the fields of a prestats row:
   * {@code _time}, the dimensions, {@code metric_name}, {@code index}, a double column per metric),
   * until it answers false or {@code stopped} says so.
   *
   * @return messages for the search's answer (indexes left out, damage found)
   */
  java.util.List<String> appendPages(
      MstatsCommand command,
      int pageSize,
      Predicate<io.quarry.plugin.api.data.Page> pages,
      BooleanSupplier stopped)
      throws IOException;
}
