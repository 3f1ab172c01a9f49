package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.Subsearch;
import io.quarry.ql.ast.SubsearchResult;
import io.quarry.ql.parser.QueryParseException;
import io.quarry.ql.plan.SubsearchRunner;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * The runner of a {@code map} whose search text writes nothing ({@link
 * io.quarry.ql.plan.RunsSearches#readOnly}): it runs each search through {@code runner} unless,
 * with the result's values filled in, the search writes ({@code writingCommand} names a command) —
 * a value may carry text that adds a command ({@code $q$} holding {@code x | collect …}) — which
 * fails the search with 400 {@code SEARCH_WRITES}. So a read-only map never writes, and may run in
 * a preview or a search run on the user's behalf.
 */
record ReadOnlyRunner(SubsearchRunner runner, Function<String, String> writingCommand)
    implements SubsearchRunner {
  ReadOnlyRunner {
    requireNonNull(runner, "runner is null");
    requireNonNull(writingCommand, "writingCommand is null");
  }

  @Override
  public SubsearchResult run(Subsearch subsearch, long maxRows, Duration maxTime) {
    refuseWriting(subsearch);
    return runner.run(subsearch, maxRows, maxTime);
  }

  @Override
  public SubsearchResult run(
      Subsearch subsearch, long maxRows, Duration maxTime, BooleanSupplier outerStopped) {
    refuseWriting(subsearch);
    return runner.run(subsearch, maxRows, maxTime, outerStopped);
  }

  private void refuseWriting(Subsearch subsearch) {
    String command;
    try {
      command = writingCommand.apply(subsearch.text());
    } catch (QueryParseException e) {
      command = null; // the runner reports it as the search's error
    }
    if (command != null) {
      throw SearchFailures.writes(
          "A map whose search text writes nothing",
          command,
          "a value filled in for a $field$ added it (" + subsearch.text() + ")");
    }
  }
}
