package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.MstatsCommand;
import java.io.IOException;
import java.util.List;
import java.util.function.BooleanSupplier;

/** Where a search's {@code mstats prestats=true append=true} reads its points (the server's). */
@FunctionalInterface
public interface MetricAppend {
  /** No metric store: {@code mstats append=true} fails, saying so. */
  MetricAppend NONE =
      (command, pageSize, stopped) -> {
        throw new IllegalArgumentException("mstats append=true needs a server with metric indexes");
      };

  /**
   * A read of every point {@code command} selects (its bound {@link MstatsCommand#scope}), pulled a
   * page at a time: typed pages of at most {@code pageSize} positions (the fields of a prestats
   * row: {@code _time}, the dimensions, {@code metric_name}, {@code index}, a double column per
   * metric), none more once {@code stopped} says so.
   */
  Points open(MstatsCommand command, int pageSize, BooleanSupplier stopped) throws IOException;

  /**
   * The points of one read, as its reader pulls them; closed once, whether read to the end or not.
   */
  interface Points {
    /** The next page of points (the store read as far as it takes); null when none is left. */
    Page next() throws IOException;

    /**
     * Ends the read, read through or not: what it holds of the store is let go.
     *
     * @return messages for the search's answer (indexes left out, damage found)
     */
    List<String> close() throws IOException;
  }
}
