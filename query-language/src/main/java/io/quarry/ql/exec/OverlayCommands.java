package io.quarry.ql.exec;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import java.util.Set;

/**
 * Which plugin commands run over events as a {@link PluginOverlayOperator}, and how they name what
 * they write: those whose output rows are their input rows ({@link #overlays}), those whose rows
 * are their own ({@link #makesOwnRows}), and among the first those that read every field without a
 * literal list of the fields they write, so may rewrite any field ({@link #writesEveryField}), of
 * which bare {@code fillnull} and {@code filldown} name what they wrote over their whole output
 * ({@link #holdsOutput}).
 */
public final class OverlayCommands {
  /** Built-in commands run centrally whose output rows are their input rows. */
  private static final Set<String> CENTRAL_OVER_ROWS =
      Set.of("fillnull", "accum", "delta", "autoregress", "trendline", "filldown", "collect");

  /** Those of them that hold their whole input before answering (run centrally). */
  private static final Set<String> HOLDING = Set.of("filldown", "fillnull");

  /** Built-in commands whose output rows are their own, never their input rows. */
  private static final Set<String> OWN_ROWS = Set.of("transpose", "untable", "xyseries");

  private OverlayCommands() {}

  /**
   * Whether {@code command} is a plugin command whose output rows are its input rows with fields
   * laid over them: a streaming one (but {@code untable}, which makes rows of its own), a built-in
   * run centrally that keeps its rows ({@code fillnull}, {@code accum} …), or a third-party one run
   * centrally (its pages without the row column are rows of its own making, see {@link
   * PluginOverlayOperator}). Not {@code appendpipe} nor {@code map}, which run searches.
   */
  public static boolean overlays(Command command) {
    if (!(command instanceof PluginCommand plugin)
        || plugin.bound() instanceof io.quarry.ql.plan.RunsSearches) {
      return false;
    }
    boolean builtIn = plugin.plugin().equals("built-in");
    return switch (plugin.kind()) {
      case STREAMING -> !(builtIn && plugin.name().equals("untable"));
      case CENTRALIZED -> !builtIn || CENTRAL_OVER_ROWS.contains(plugin.name());
      default -> false;
    };
  }

  /**
   * Whether {@code command} may write any field of its input without naming one: it reads every
   * field ({@link io.quarry.plugin.api.command.BoundCommand#ALL_FIELDS}) and declares no field it
   * produces, or only by pattern ({@code convert auto(*)}): {@code replace … WITH …} without {@code
   * IN}, {@code filldown} and {@code fillnull} without fields, {@code spath} without a path, {@code
   * foreach}, {@code extract}, {@code xmlkv}, {@code convert} of a wildcard, a third-party command
   * (whatever it does with its rows is known only from its output). Such a command names a field of
   * its input on the rows whose value it changed ({@link PluginOverlayOperator}), but those that
   * {@link #holdsOutput}. Before issue 21's mend21 only {@code replace}, {@code filldown}, {@code
   * fillnull} and third-party commands did: the other built-ins named a field on every row of a
   * batch where they built a new block of it, so a row's own search-time value was listed or not by
   * which rows shared its batch ({@code BuiltinOverlayPageCutTest}).
   */
  static boolean writesEveryField(PluginCommand command) {
    Set<String> produced = command.bound().producedFields();
    return command.bound().requiredFields().contains("*")
        && (produced.isEmpty() || produced.stream().anyMatch(Wildcard::hasWildcard));
  }

  /**
   * Whether {@code command} is bare {@code fillnull} or {@code filldown} ({@link
   * #writesEveryField}), whose written fields are those whose value it changed on some row of its
   * whole output ({@link WrittenFields}), named on every row: its output over events is held until
   * its input is over, as the command held it anyway (it answers once its input ends). Not {@code
   * replace} without {@code IN} nor a third-party command, which stream: holding their output would
   * make {@code … | replace a WITH b | head 5} read every event (issue 21,
   * ListingUnderHeadHeldTest).
   */
  static boolean holdsOutput(PluginCommand command) {
    return command.plugin().equals("built-in")
        && HOLDING.contains(command.name())
        && writesEveryField(command);
  }

  /**
   * Whether {@code command} is a built-in plugin command whose output rows are rows of its own
   * making ({@code transpose}, {@code untable}, {@code xyseries}): over events, it is handed
   * batches of them and answers with new rows, not events, whatever fields the events list — so
   * nothing after it needs to fix the answer's columns.
   */
  public static boolean makesOwnRows(Command command) {
    return command instanceof PluginCommand plugin
        && plugin.plugin().equals("built-in")
        && OWN_ROWS.contains(plugin.name());
  }
}
