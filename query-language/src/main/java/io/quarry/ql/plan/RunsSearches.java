package io.quarry.ql.plan;

import io.quarry.plugin.api.command.BoundCommand;

/**
 * A bound command that runs searches while the pipeline runs ({@code map}): it is handed, when the
 * query's subsearches run ({@link SubsearchExpander}), the runner they run through — the same user,
 * time range and limits — and keeps it until its operator runs.
 */
public interface RunsSearches {
  /** The runner its searches run through, or null before it is handed one. */
  SubsearchRunner runner();

  /** This command, running its searches through {@code runner}. */
  BoundCommand withRunner(SubsearchRunner runner);
}
