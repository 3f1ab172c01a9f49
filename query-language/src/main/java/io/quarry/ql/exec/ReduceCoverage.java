package io.quarry.ql.exec;

import io.quarry.plugin.api.command.CommandKind;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.DedupCommand;
import io.quarry.ql.ast.EventStatsCommand;
import io.quarry.ql.ast.HeadCommand;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.ast.ReorderCommand;
import io.quarry.ql.ast.SortCommand;
import io.quarry.ql.ast.StreamStatsCommand;
import io.quarry.ql.engine.aggregation.PageAggregator;
import java.util.List;

/**
 * Which command sequences run on pages through {@link PageReduce} — the planner's rule for the
 * reduce side of a batch search, a generator's pipeline, a time-ordered search's stages — and where
 * the stream must first be re-paged in batches of rows ({@link RowPaging}) for a plugin command
 * that reads its input page as such a batch. Kept apart from {@link PageReduce}, which runs what
 * these rules accept.
 */
public final class ReduceCoverage {
  private ReduceCoverage() {}

  /**
   * Whether every command has a page stage here, over pages that hold whole rows (an aggregation's
   * or a generator's answer, or events after a {@code table} or {@code fields} fixed their
   * columns): besides {@link PageChain}'s, the commands that need their input in order and whole —
   * {@code sort}, {@code head}, {@code dedup} —, every streaming or centrally run plugin command
   * ({@code accum}, {@code delta}, {@code trendline}, {@code xyseries}, {@code mvcombine}, {@code
   * fillnull}, {@code foreach} …), and the built-in commands written as plugin operators ({@code
   * format}, {@code return}, {@code append}: {@link PageCommands}), their own operators driven on
   * the one ordered stream of pages this side has. The input's pages are batches of {@value
   * RowPaging#BATCH} rows sharing one schema (an aggregation's answer, a generator's, events whose
   * columns a {@code table} fixed): a plugin command runs on pages only where its input pages are
   * still those batches (after {@code eval}, {@code table}, {@code rename}, {@code bin}, {@code
   * rex}, {@code lookup}, {@code sort}, {@code head}; not after a filter or another plugin
   * command), one reading every field only where they still share that schema; a plugin command
   * {@link PageChain} runs on any pages (one that names its fields, or works field by field) runs
   * here wherever it is. An aggregation is a stage too (a generator's {@code | makeresults |
   * stats}, a second aggregation): its answer is fresh pages of one schema; so is {@code mstats
   * prestats=true append=true} ({@link MstatsAppendOperator}).
   */
  public static boolean supports(List<Command> commands) {
    return rebatched(commands, false) != null;
  }

  /**
   * As {@link #supports}, for commands whose input is events (a time-ordered search's): a {@code
   * search} of bare words too, where every command before it keeps the events' raw text ({@link
   * EventText}: its terms matched in the page's {@code _raw}, the event's raw text).
   */
  public static boolean supportsOverEvents(List<Command> commands) {
    return rebatched(commands, true) != null;
  }

  /**
   * As {@link #supportsOverEvents}, for pages of events that carry each event's own raw text
   * ({@link EventText#OWN_RAW}: an event listing's, or a source's with {@link
   * EventText#withOwnText}): a {@code search} of bare words also after commands that change {@code
   * _raw} or bring in rows that are not events but keep the input's rows events ({@link
   * EventTextCommands#keepsEventRow}: {@code eval _raw=…}, {@code append}, {@code join}), its terms
   * matched in that column, the event's own text ({@link PageReduce} marks {@code append}'s other
   * rows as no events).
   */
  public static boolean supportsOverEventsWithOwnText(List<Command> commands) {
    return coverage(commands, true, false, true) != null;
  }

  /**
   * As {@link #supports}, for commands whose input rows are not events (an aggregation's answer, a
   * generator's, a metric command's): a {@code search} of bare words too, where no command before
   * it brought events in ({@code append}, {@code join} …): such a row matches a term by its field
   * values ({@code io.quarry.ql.eval.FieldValueTerm}; by its {@code _raw} where an {@code eval}
   * gave it one), which its page holds whatever its layout.
   */
  public static boolean supportsOverResults(List<Command> commands) {
    return coverage(commands, false, true) != null;
  }

  /**
   * Where {@link #supports} needs the stream re-paged in batches of rows ({@link RowPaging}) before
   * a command: {@code [i]} is true when a plugin command {@code i} reads its input page as such a
   * batch (it types and fills over it, or reads every field) but the pages before it no longer are
   * those batches (filtered, or of several schemas: after another plugin command, {@code sort},
   * {@code streamstats} …); null when some command has no stage.
   */
  static boolean[] rebatched(List<Command> commands, boolean overEvents) {
    return rebatched(commands, overEvents, false);
  }

  /**
   * As above; {@code overResults}: the input rows are not events ({@link #supportsOverResults}).
   */
  static boolean[] rebatched(List<Command> commands, boolean overEvents, boolean overResults) {
    return rebatched(commands, overEvents, overResults, false);
  }

  /** As above; {@code ownText}: the pages carry each event's own raw text ({@link EventText}). */
  static boolean[] rebatched(
      List<Command> commands, boolean overEvents, boolean overResults, boolean ownText) {
    Coverage coverage = coverage(commands, overEvents, overResults, ownText);
    return coverage == null ? null : coverage.rebatch();
  }

  /** Per command: whether it is re-paged first. */
  private record Coverage(boolean[] rebatch) {}

  private static Coverage coverage(
      List<Command> commands, boolean overEvents, boolean overResults) {
    return coverage(commands, overEvents, overResults, false);
  }

  private static Coverage coverage(
      List<Command> commands, boolean overEvents, boolean overResults, boolean ownText) {
    boolean[] rebatch = new boolean[commands.size()];
    boolean eventText = overEvents; // whether _raw is still each event's own raw text
    // whether the rows are still events asking their event's text, which the pages carry
    boolean eventRow = overEvents && ownText;
    boolean noEvents = overResults; // whether no row is an event (a term asks its fields)
    boolean batches = true; // whether the pages are still the input's batches of the rows
    boolean oneSchema = true; // whether the pages still share the input's one schema
    for (int i = 0; i < commands.size(); i++) {
      Command c = commands.get(i);
      boolean plugin =
          c instanceof PluginCommand command
                  && (command.kind() == CommandKind.STREAMING
                      || command.kind() == CommandKind.CENTRALIZED)
              || isPageCommand(c);
      boolean chainStage = // runs on any pages, as on the map side
          PageChain.supports(List.of(c))
              || (eventText || eventRow || noEvents) && EventTextCommands.searchesText(c)
              || noEvents && renamesOverResults(c);
      eventText =
          EventTextCommands.removesRaw(c) || eventText && EventTextCommands.keepsEventText(c);
      eventRow = eventRow && EventTextCommands.keepsEventRow(c);
      // rows are never events again once none is: a subsearch's rows (append, join, appendcols,
      // map) and appendpipe's are rows made from pages, whose fields a term asks too
      noEvents = noEvents || makesResults(c);
      if (c instanceof io.quarry.ql.ast.MstatsCommand mstats && mstats.append()) {
        // mstats prestats=true append=true (MstatsAppendOperator): the pages before it, then its
        // points as pages of another shape
        batches = false;
        oneSchema = false;
        continue;
      }
      if (c instanceof io.quarry.ql.ast.OutputLookupCommand) {
        continue; // pages handed on as they came; the table's cells exact whatever their layout
      }
      if (c instanceof io.quarry.ql.ast.FieldSummaryCommand) {
        // reads each row's fields exactly whatever the pages' layout; its answer: fresh pages of
        // one schema, one row per field
        batches = true;
        oneSchema = true;
        continue;
      }
      if (c instanceof io.quarry.ql.ast.TransactionCommand) {
        // its results: fresh pages of the columns they hold, not the input's batches
        batches = false;
        oneSchema = false;
        continue;
      }
      if (c instanceof io.quarry.ql.ast.SubsearchCommand sub
              && sub.kind() != io.quarry.ql.ast.SubsearchCommand.Kind.APPEND
          || c instanceof PluginCommand appendpipe && appendpipe.name().equals("appendpipe")) {
        // join, appendcols (HashJoinOperator, PairedColumnsOperator): any pages, position by
        // position, every input column carried; appendpipe passes its pages on and runs its
        // commands over them as SubPipeline decides (pages of one schema, else their rows); the
        // pages after them are of their own making
        batches = false;
        oneSchema = false;
        continue;
      }
      if (inOrder(c)) {
        // eventstats, streamstats, accum … of named fields: position for position over the
        // ordered stream, whatever the pages' sizes (StatefulStagesTest checks them on random
        // pages); the columns they add may be typed page by page
        oneSchema = false;
        continue;
      }
      if (plugin && !chainStage) {
        if (!batches || readsEveryField(c) && !oneSchema) {
          // the rows re-paged in batches again, one schema each
          rebatch[i] = true;
          batches = true;
          oneSchema = true;
        }
      } else if (PageAggregator.supports(c)) {
        // an aggregation's answer: fresh pages of its own rows, one schema, the batch size
        batches = true;
        oneSchema = true;
        continue;
      } else if (!(c instanceof SortCommand
          || c instanceof HeadCommand
          || c instanceof DedupCommand
          || c instanceof ReorderCommand
          || c instanceof io.quarry.ql.ast.BinCommand // without a span: BinRangeOperator
          || chainStage
          || inOrder(c))) {
        return null;
      }
      // a plugin operator types and fills over its input page, which must then be a batch of
      // rows: the input's pages (of the batch size) cut by head or sorted, not filtered; and a
      // command reading every field must see the columns the batch has, which a sort's pages (the
      // columns their rows hold values in), a
      // deduplication's and a plugin operator's may not
      batches =
          batches
              && (c instanceof io.quarry.ql.ast.EvalCommand
                  || c instanceof io.quarry.ql.ast.ProjectCommand
                  || c instanceof io.quarry.ql.ast.RenameCommand
                  || c instanceof io.quarry.ql.ast.BinCommand
                  || c instanceof io.quarry.ql.ast.RexCommand // row-local: position for position
                  || c instanceof io.quarry.ql.ast.LookupCommand
                  || c instanceof SortCommand
                  || c instanceof HeadCommand);
      oneSchema =
          oneSchema
              && !(c instanceof SortCommand
                  || c instanceof DedupCommand
                  || c instanceof ReorderCommand);
    }
    return new Coverage(rebatch);
  }

  /**
   * Whether a command's output rows are all of its own making, none an event: an aggregation's, a
   * transaction's, those of {@code transpose}, {@code untable}, {@code xyseries} ({@link
   * OverlayCommands#makesOwnRows}).
   */
  private static boolean makesResults(Command command) {
    return PageAggregator.supports(command)
        || command instanceof io.quarry.ql.ast.TransactionCommand // its results: rows of its own
        || OverlayCommands.makesOwnRows(command);
  }

  /**
   * Whether {@code command} is a {@code rename} whose page stage renames exactly over rows that are
   * not events, where {@link PageChain} (which also serves events, whose fields a source loads by
   * name) refuses it: a wildcard of one {@code *} in both names that can match {@code _time}
   * ({@code rename _t* AS t*}, {@code rename * AS x_*}). A row that is no event lists exactly the
   * fields its page holds values in, so the columns the pattern matches are the fields {@code
   * rename} renames, {@code _time} becoming epoch seconds under its new name and a field renamed to
   * {@code _time} converted to the microseconds {@code _time} holds.
   */
  private static boolean renamesOverResults(Command command) {
    return command instanceof io.quarry.ql.ast.RenameCommand rename
        && rename.renames().stream()
            .allMatch(
                r ->
                    Wildcard.hasWildcard(r.from())
                        ? stars(r.from()) == 1 && stars(r.to()) == 1
                        : !Wildcard.hasWildcard(r.to()));
  }

  private static long stars(String name) {
    return name.chars().filter(c -> c == '*').count();
  }

  /**
   * Whether a command reads every field a row has, or makes a new table of them. Not {@code
   * append}: it hands its input on as it is and adds the subsearch's rows, which carry their own
   * fields, so the fields read after it are all it needs from its input.
   */
  private static boolean readsEveryField(Command command) {
    if (command instanceof io.quarry.ql.ast.SubsearchCommand sub
        && sub.kind() != io.quarry.ql.ast.SubsearchCommand.Kind.APPEND) {
      // join by named fields reads those, appendcols the subsearch's columns (PageChain's
      // inputFields); join without fields reads whichever the input has
      return sub.kind() == io.quarry.ql.ast.SubsearchCommand.Kind.JOIN
          && sub.join().fields().isEmpty();
    }
    return command instanceof io.quarry.ql.ast.OutputLookupCommand
        || command instanceof io.quarry.ql.ast.FieldSummaryCommand
        || isPageCommand(command)
            && !(command instanceof io.quarry.ql.ast.ReturnCommand) // its own fields
            && !(command instanceof io.quarry.ql.ast.SubsearchCommand)
        || command instanceof PluginCommand plugin
            && plugin.bound().requiredFields().contains("*")
            && !PageChain.supports(List.of(command)); // field by field in place: reads its own
  }

  /** Whether any of {@code commands} reads every field a row has or makes a new table of them. */
  public static boolean readsEveryField(List<Command> commands) {
    return commands.stream().anyMatch(ReduceCoverage::readsEveryField);
  }

  /**
   * As {@link #supports}, for pages that hold only the fields the commands read ({@link
   * InputFields#of}, worked out backwards from a page source): no command that reads every field a
   * row has or makes a new table ({@link PageCommands}).
   */
  public static boolean supportsOverReadFields(List<Command> commands) {
    return supports(commands) && commands.stream().noneMatch(ReduceCoverage::readsEveryField);
  }

  /**
   * As {@link #supportsOverReadFields}, for commands whose input is events ({@link
   * #supportsOverEvents}).
   */
  public static boolean supportsOverReadFieldsOverEvents(List<Command> commands) {
    return supportsOverEvents(commands)
        && commands.stream().noneMatch(ReduceCoverage::readsEveryField);
  }

  /**
   * As {@link #supportsOverReadFieldsOverEvents}, for pages of events that carry each event's own
   * raw text ({@link #supportsOverEventsWithOwnText}).
   */
  public static boolean supportsOverReadFieldsOverEventsWithOwnText(List<Command> commands) {
    return supportsOverEventsWithOwnText(commands)
        && commands.stream().noneMatch(ReduceCoverage::readsEveryField);
  }

  /**
   * {@code format}, {@code return}, {@code append}, {@code join} and {@code appendcols} ({@link
   * PageCommands#onPages}: join and appendcols as their page operators).
   */
  static boolean isPageCommand(Command command) {
    return command instanceof io.quarry.ql.ast.FormatCommand
        || command instanceof io.quarry.ql.ast.ReturnCommand
        || command instanceof io.quarry.ql.ast.SubsearchCommand;
  }

  /** The built-in centralized commands whose page operators need only the stream in order. */
  private static final java.util.Set<String> IN_ORDER =
      java.util.Set.of("accum", "delta", "autoregress", "trendline", "filldown");

  /**
   * Whether {@code command} needs the whole stream in order and has a page stage for it here:
   * {@code eventstats} and {@code streamstats} whose functions all have page implementations, and
   * the built-in page operators that carry state from position to position ({@link #IN_ORDER}),
   * driven directly ({@link PageChain}'s plugin stage). Never a map side's stage.
   */
  public static boolean inOrder(Command command) {
    return switch (command) {
      case EventStatsCommand eventstats -> EventStatsOperator.supports(eventstats);
      case StreamStatsCommand streamstats -> StreamStatsOperator.supports(streamstats);
      case io.quarry.ql.ast.PluginCommand plugin ->
          plugin.kind() == io.quarry.plugin.api.command.CommandKind.CENTRALIZED
              && IN_ORDER.contains(plugin.name())
              // filldown of every field fills the columns its input page holds, so it runs
              // as a plugin operator over batches of rows (rebatched), not in order on any pages
              && !plugin.bound().requiredFields().contains("*");
      default -> false;
    };
  }
}
