package io.quarry.ql.exec;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.DedupCommand;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.EventStatsCommand;
import io.quarry.ql.ast.Expression;
import io.quarry.ql.ast.HeadCommand;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.ast.RenameCommand;
import io.quarry.ql.ast.ReorderCommand;
import io.quarry.ql.ast.RexCommand;
import io.quarry.ql.ast.SearchCommand;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.ast.SortCommand;
import io.quarry.ql.ast.StreamStatsCommand;
import io.quarry.ql.ast.SubsearchCommand;
import io.quarry.ql.ast.WhereCommand;

/**
 * The planner's questions about {@link EventText}, one command at a time: whether a command
 * searches an event's own text ({@link #searchesText}, {@link #readsBareWords}), keeps its input's
 * rows events ({@link #keepsEventRow}) and their text the events' own ({@link #keepsEventText}),
 * removes {@code _raw} ({@link #removesRaw}, {@link #withoutRaw}).
 */
final class EventTextCommands {
  private static final String RAW = "_raw";

  private EventTextCommands() {}

  /**
   * Whether {@code command} is a {@code search} whose bare words or phrases need an event's raw
   * text, its other parts field comparisons a page decides ({@link FieldStages#supports} takes the
   * searches of comparisons only).
   */
  static boolean searchesText(Command command) {
    return command instanceof SearchCommand search
        && search.expression().isPresent()
        && termsAndComparisons(search.expression().get())
        && !FieldStages.comparesOnly(search.expression().get());
  }

  /**
   * Whether {@code command} reads bare words or phrases: a {@code search} of them ({@link
   * #searchesText}), or an {@code eval}, {@code where} or {@code streamstats} reset condition
   * holding a {@code searchmatch()} of one. Over a row without {@code _raw} such a word asks the
   * row's every field ({@code io.quarry.ql.eval.FieldValueTerm}), so the needed-field walk answers
   * {@code *} for it ({@link InputFields#of}, where {@link #withoutRaw}).
   */
  static boolean readsBareWords(Command command) {
    return switch (command) {
      case SearchCommand search -> searchesText(search);
      case EvalCommand eval ->
          eval.assignments().stream().anyMatch(a -> searchesTerm(a.expression()));
      case WhereCommand where -> searchesTerm(where.condition());
      case StreamStatsCommand s ->
          s.resetBefore().filter(EventTextCommands::searchesTerm).isPresent()
              || s.resetAfter().filter(EventTextCommands::searchesTerm).isPresent();
      default -> false;
    };
  }

  /** Whether {@code expression} holds a {@code searchmatch()} of a bare word or phrase. */
  private static boolean searchesTerm(Expression expression) {
    return switch (expression) {
      case Expression.Literal literal -> false;
      case Expression.Field field -> false;
      case Expression.Unary unary -> searchesTerm(unary.operand());
      case Expression.Binary binary -> searchesTerm(binary.left()) || searchesTerm(binary.right());
      case Expression.Call call ->
          call.function().equals("searchmatch")
                  && call.arguments().size() == 1
                  && call.arguments().get(0) instanceof Expression.Literal(String search)
                  && SearchMatch.parse(search) instanceof SearchExpression parsed
                  && !FieldStages.comparesOnly(parsed)
              || call.arguments().stream().anyMatch(EventTextCommands::searchesTerm);
    };
  }

  private static boolean termsAndComparisons(SearchExpression expression) {
    return switch (expression) {
      case SearchExpression.Term term -> true;
      case SearchExpression.Comparison c -> true;
      case SearchExpression.In in -> true;
      case SearchExpression.And and ->
          and.operands().stream().allMatch(EventTextCommands::termsAndComparisons);
      case SearchExpression.Or or ->
          or.operands().stream().allMatch(EventTextCommands::termsAndComparisons);
      case SearchExpression.Not not -> termsAndComparisons(not.operand());
      case SearchExpression.SubsearchTerm sub -> false;
    };
  }

  /**
   * Whether the rows after {@code command} are still events that answer a bare word from their
   * current {@code _raw}, else (where it is null) their event's stored text: the commands {@link
   * #keepsEventText} takes ({@code fields}/{@code table} among them: {@link EventText#OWN_RAW} goes
   * where {@code _raw} goes, {@link #ownTextAfterProjection}, so a row left without {@code _raw}
   * asks its fields, which the page holds), and an {@code eval}, {@code rex}, {@code lookup} or
   * {@code rename} that writes {@code _raw} (their rows match on the {@code _raw} they set); a
   * {@code rename} of {@code _raw} to another name too (the row then has no {@code _raw}: a term
   * asks its fields); {@code append} (its input's rows pass on as they came; the subsearch's rows
   * are no events, marked so by {@link EventText#markingOtherRows}), {@code appendcols} (the n-th
   * input row gets the subsearch's n-th row's fields, never {@code _raw}; the subsearch's rows
   * beyond the input's are no events, marked so too) and {@code join} (a joined row is its input
   * event with the subsearch's fields laid over it, matching on its event's text; the page copies
   * each position's {@link EventText#OWN_RAW} with the rest); {@code eventstats}/{@code
   * streamstats} whatever they name, and a built-in plugin command of named fields {@code _raw}
   * among them (its row matches on its event's text; it passes {@link EventText#OWN_RAW} through).
   * Exact on pages that carry {@link EventText#OWN_RAW}.
   */
  static boolean keepsEventRow(Command command) {
    return switch (command) {
      // append, join; appendcols lays the subsearch's non-internal fields over its input rows (no
      // _raw), its rows beyond the input's being no events, as append's
      case SubsearchCommand sub -> true;
      case EvalCommand eval -> true;
      case io.quarry.ql.ast.LookupCommand lookup -> true;
      case RexCommand rex -> true;
      // any rename: the stage keeps the hidden own-text column unless it moved _raw away, then
      // the row asks its fields (ownTextAfterRename)
      case RenameCommand rename -> true;
      // their results laid over the event, which keeps its own text, whatever they name
      case EventStatsCommand eventstats -> true;
      case StreamStatsCommand streamstats -> true;
      // a built-in overlay of named fields passes the hidden own-text column through
      case PluginCommand plugin -> overlays(plugin);
      default -> keepsEventText(command);
    };
  }

  /**
   * Whether the rows after {@code command} hold no {@code _raw}, whatever they held before: a
   * {@code fields -} naming it (or a pattern matching it), a {@code table} not naming it, a {@code
   * rename} moving it to another name ({@code rename _raw AS r}, {@code rename _r* AS x*}). A bare
   * word over a row without {@code _raw} asks its field values ({@code
   * io.quarry.ql.eval.FieldValueTerm}), so a {@code search} of bare words after it is exact on any
   * pages that carry the row's every field, whatever set {@code _raw} before ({@code eval _raw=… |
   * fields - _raw | search x} asks the fields), until a later command writes {@code _raw} again
   * ({@link #keepsEventText}).
   */
  static boolean removesRaw(Command command) {
    return command instanceof ProjectCommand project && FieldStages.removes(project, RAW)
        || movesRawAway(command);
  }

  /**
   * Per command of a chain over events, whether the rows reaching it hold no {@code _raw}: a
   * command before it removed it or renamed it away ({@link #removesRaw}), and none since may have
   * written it again (every one since {@link #keepsEventText}). A bare word there asks the row's
   * field values ({@code io.quarry.ql.eval.FieldValueTerm}), so its every field.
   */
  static boolean[] withoutRaw(java.util.List<Command> commands) {
    boolean[] without = new boolean[commands.size()];
    boolean gone = false;
    for (int i = 0; i < commands.size(); i++) {
      without[i] = gone;
      Command c = commands.get(i);
      gone = removesRaw(c) || gone && keepsEventText(c);
    }
    return without;
  }

  /** Whether {@code command} is a {@code rename} moving {@code _raw} to another name. */
  static boolean movesRawAway(Command command) {
    return command instanceof RenameCommand rename
        && rename.renames().stream().noneMatch(EventTextCommands::setsRaw)
        && rename.renames().stream()
            .anyMatch(
                r ->
                    Wildcard.hasWildcard(r.from())
                        ? FieldStages.wildcard(r.from()).matcher(RAW).matches()
                        : r.from().equals(RAW) && !r.to().equals(RAW));
  }

  /** Whether a rename pair can put a value under {@code _raw} (its new name is or matches it). */
  private static boolean setsRaw(RenameCommand.Rename rename) {
    return Wildcard.hasWildcard(rename.to())
        ? FieldStages.wildcard(rename.to()).matcher(RAW).matches()
        : rename.to().equals(RAW) && !rename.from().equals(RAW);
  }

  private static boolean writesNoRaw(io.quarry.ql.ast.StatsCommand stats) {
    return stats.aggregations().stream().noneMatch(a -> a.outputName().equals(RAW));
  }

  /**
   * Whether {@code plugin} is a built-in command whose rows are its input rows with the fields it
   * names laid over them ({@link OverlayCommands#overlays}: a term asks such a row's event), none
   * of them {@code _raw}: its page operator passes every other column through, {@code _raw} among
   * them. Not one that reads every field ({@code fillnull} without fields would fill a null {@code
   * _raw}, and the hidden columns), nor a third-party command (whose output may be rows of its own
   * making, no events).
   */
  private static boolean overlaysNamedFields(PluginCommand plugin) {
    return overlays(plugin) && !plugin.bound().producedFields().contains(RAW);
  }

  /**
   * Whether {@code plugin} is the built-in {@code fillnull}, of every field or named ones: it sets
   * only fields without a value, and where {@code _raw} is still each event's own text (what {@link
   * #keepsEventText} asks of the commands before it) every row holds one or none has the column.
   */
  private static boolean fillsNullsOnly(PluginCommand plugin) {
    return plugin.plugin().equals("built-in") && plugin.name().equals("fillnull");
  }

  /** {@link #overlaysNamedFields}, whether or not one of its fields is {@code _raw}. */
  private static boolean overlays(PluginCommand plugin) {
    return plugin.plugin().equals("built-in")
        && OverlayCommands.overlays(plugin)
        && !plugin.bound().requiredFields().contains("*")
        && !plugin.bound().producedFields().contains("*");
  }

  /**
   * Whether the rows after {@code command} are still events whose {@code _raw}, where a page holds
   * it, is the event's own raw text: a filter ({@code where}, {@code search}), a cut or a
   * reordering ({@code head}, {@code sort}, {@code dedup}, {@code reverse}, {@code tail}), {@code
   * fields}/{@code table} (a row without {@code _raw}: a term asks its fields), an {@code eval} or
   * a {@code rex} that does not write {@code _raw}, a {@code rename} that puts no value under
   * {@code _raw} (literal or wildcard; one renaming it away leaves no {@code _raw}), a {@code
   * lookup} whose named outputs do not include {@code _raw}, a {@code bin} into a field other than
   * {@code _raw}, {@code eventstats}/{@code streamstats} whose results are not named {@code _raw},
   * a built-in plugin command laying named fields other than {@code _raw} over its input rows
   * ({@code fillnull f}, {@code mvexpand}, {@code convert} …), and {@code fillnull} of every field.
   * Anything else (an aggregation, a third-party plugin command …): not known to.
   */
  static boolean keepsEventText(Command command) {
    return switch (command) {
      case WhereCommand where -> true;
      case SearchCommand search -> true;
      case HeadCommand head -> true;
      case SortCommand sort -> true;
      case DedupCommand dedup -> true;
      case ReorderCommand reorder -> true;
      case ProjectCommand project -> true;
      case EvalCommand eval -> eval.assignments().stream().noneMatch(a -> a.field().equals(RAW));
      // its named outputs laid over the event, which still answers terms from its own text;
      // without OUTPUT every column of the table, which may be one named _raw
      case io.quarry.ql.ast.LookupCommand lookup ->
          !lookup.outputs().isEmpty()
              && lookup.outputs().stream().noneMatch(o -> o.field().equals(RAW));
      case RexCommand rex ->
          !(rex.sed() != null && rex.field().equals(RAW))
              && rex.groups().stream().noneMatch(g -> g.field().equals(RAW));
      // no pair puts a value under _raw: the page's _raw, where it still has one, is the event's
      // own; one renamed away (rename _raw AS r, rename _r* AS x*) leaves a row no _raw, whose
      // fields a term asks, as after fields - _raw
      case RenameCommand rename -> rename.renames().stream().noneMatch(EventTextCommands::setsRaw);
      // its bucket laid over the event, which still answers terms from its own text
      case io.quarry.ql.ast.BinCommand bin -> !bin.as().equals(RAW);
      // their results laid over the event, in a column of their own
      case EventStatsCommand eventstats -> writesNoRaw(eventstats.stats());
      case StreamStatsCommand streamstats -> writesNoRaw(streamstats.stats());
      case PluginCommand plugin -> overlaysNamedFields(plugin) || fillsNullsOnly(plugin);
      default -> false;
    };
  }
}
