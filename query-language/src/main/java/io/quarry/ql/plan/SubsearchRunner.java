package io.quarry.ql.plan;

import io.quarry.ql.ast.Subsearch;
import io.quarry.ql.ast.SubsearchResult;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Runs a subsearch for the planner (the runtime implements it: this module does no I/O). The
 * subsearch is planned for the same user and time range as the search holding it; its own nested
 * subsearches run inside it first.
 */
public interface SubsearchRunner {
  /**
   * Runs {@code subsearch}, keeping its first {@code maxRows} rows and finalizing it after {@code
   * maxTime}; the result's messages say when either cut it.
   *
   * @throws RuntimeException a typed error naming the subsearch when it cannot run or fails
   */
  SubsearchResult run(Subsearch subsearch, long maxRows, Duration maxTime);

  /**
   * As above for a search run while another runs ({@code map}): it also stops, answering with what
   * it has, as soon as {@code outerStopped} says the search holding it must stop (cancelled,
   * finalized, past its time limit). By default only its own limits stop it.
   */
  default SubsearchResult run(
      Subsearch subsearch, long maxRows, Duration maxTime, BooleanSupplier outerStopped) {
    return run(subsearch, maxRows, maxTime);
  }
}
