package io.quarry.ql.plan;

import io.quarry.plugin.api.command.BoundCommand;

/**
 * A bound command that runs searches while the pipeline runs ({@code map}): it is handed, when the
 * query's subsearches run ({@link SubsearchExpander}), the runner they run through — the same user,
 * time range and limits — and keeps it until its operator runs.
 *
 * <p>Its searches are known before they run but for what each run fills in ({@link
 * #searchTemplate}): the server checks that text and, when it writes nothing, hands the command a
 * runner that refuses any search that does ({@link #withReadOnlyRunner}); such a command is {@link
 * #readOnly} and may run where writing must not (a preview).
 */
public interface RunsSearches {
  /** The command's searches-running bound command ({@code map}), or null. */
  static RunsSearches of(io.quarry.ql.ast.Command command) {
    return command instanceof io.quarry.ql.ast.PluginCommand plugin
            && plugin.bound() instanceof RunsSearches runs
        ? runs
        : null;
  }

  /** The runner its searches run through, or null before it is handed one. */
  SubsearchRunner runner();

  /** This command, running its searches through {@code runner}. */
  BoundCommand withRunner(SubsearchRunner runner);

  /**
   * The text of the searches it runs with what each run fills in ({@code map}'s {@code $field$}
   * tokens) replaced by {@code placeholder}.
   */
  String searchTemplate(String placeholder);

  /** Whether its runner refuses every search that writes ({@link #withReadOnlyRunner}). */
  boolean readOnly();

  /**
   * This command, running its searches through {@code runner}, which refuses (fails) any search
   * that writes: it is {@link #readOnly}.
   */
  BoundCommand withReadOnlyRunner(SubsearchRunner runner);
}
