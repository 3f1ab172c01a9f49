package io.quarry.ql.exec;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which commands of one search ran on the row engine ({@link RowSink} operators, or a generating
 * command's rows), so the row engine's reach is measurable while it is being retired (issue 21):
 * every row operator is made through {@link Pipelines#operator}, which enters its command here, and
 * the server enters the row sources it starts (a generator's rows). The search's stats and its job
 * inspector show the names as {@code row_stages}.
 *
 * <p>A strict instance ({@code -Dquarry.search.engine=pages-only}, a developer setting) refuses
 * instead: the search fails with {@link RowEngineRefused} naming the command, which is how the
 * golden specs list the cases that still need rows. One instance per search; entered from the
 * search's threads (map side slices, the reduce), so it is thread-safe.
 */
public final class RowStages {
  private final boolean strict;
  private final Set<String> names = new LinkedHashSet<>();

  private RowStages(boolean strict) {
    this.strict = strict;
  }

  /** Records the commands that run on rows. */
  public static RowStages tracking() {
    return new RowStages(false);
  }

  /** Refuses any command that would run on rows. */
  public static RowStages strict() {
    return new RowStages(true);
  }

  /**
   * The refusal of {@code commands} (command names, in pipeline order) where no row engine runs
   * them any more: a page form that has no stage for them.
   */
  public static RowEngineRefused refusal(List<String> commands) {
    return new RowEngineRefused(commands);
  }

  /** Whether a row stage fails the search. */
  public boolean isStrict() {
    return strict;
  }

  /**
   * {@code commands} (command names, in pipeline order) are about to run on rows; a strict instance
   * throws naming them all, else they are recorded.
   */
  public void enter(List<String> commands) {
    if (commands.isEmpty()) {
      return;
    }
    if (strict) {
      throw new RowEngineRefused(commands);
    }
    synchronized (names) {
      names.addAll(commands);
    }
  }

  /** One command about to run on rows (see {@link #enter(List)}). */
  public void enter(String command) {
    enter(List.of(command));
  }

  /** The commands that ran on rows, each once, in the order first entered. */
  public List<String> names() {
    synchronized (names) {
      return List.copyOf(new ArrayList<>(names));
    }
  }

  /**
   * A search under {@code quarry.search.engine=pages-only} reached the row engine: the message
   * names the commands that would have run on rows.
   */
  public static final class RowEngineRefused extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final List<String> commands;

    RowEngineRefused(List<String> commands) {
      super(
          "quarry.search.engine=pages-only: "
              + String.join(", ", commands)
              + " would run on the row engine");
      this.commands = List.copyOf(commands);
    }

    /** The commands that would have run on rows, in pipeline order. */
    public List<String> commands() {
      return commands;
    }
  }
}
