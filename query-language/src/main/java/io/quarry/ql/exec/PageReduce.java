package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.DedupCommand;
import io.quarry.ql.ast.EventStatsCommand;
import io.quarry.ql.ast.HeadCommand;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.ast.ReorderCommand;
import io.quarry.ql.ast.SortCommand;
import io.quarry.ql.ast.StreamStatsCommand;
import io.quarry.ql.engine.BlockCopies;
import io.quarry.ql.engine.aggregation.PageAggregator;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The commands after an aggregation, on its pages: {@code sort} ({@link PageSort}), {@code head},
 * {@code dedup} ({@link PageDedup}, its {@code sortby} a {@link PageSort} after it), {@code
 * reverse} and {@code tail} ({@link PageReorder}), {@code eventstats} ({@link EventStatsStage}),
 * {@code streamstats} ({@link StreamStatsStage}), {@code transaction} ({@link TransactionStage}),
 * {@code bin bins=N} ({@link BinRangeStage}: the span from the whole input's range), {@code
 * fieldsummary} ({@link FieldSummaryStage}), {@code outputlookup} ({@link OutputLookupStage}), the
 * built-in page operators that carry state from position to position ({@code accum}, {@code delta}
 * …), aggregations, plugin commands and the built-in commands written as plugin operators ({@link
 * PageCommands}), and every command {@link PageChain} runs on pages ({@code eval}, {@code where},
 * {@code fields}, {@code rename}, {@code bin}, streaming plugin commands …), one stage each, in
 * order, into the search's answer. The reduce side of a batch search when all of its commands are
 * of these kinds; otherwise the aggregation's pages go through the row commands. {@link #add} says
 * when nothing more is wanted: a {@code head} has its rows, or the answer is full.
 */
public final class PageReduce {
  private final PageChain chain;
  private final Predicate<Page> end;
  private final RowPaging paging; // null: the chain's pages are the answer's
  private final List<Head> heads = new ArrayList<>();
  private int writersAfter = -1; // the heads before the first outputlookup; -1: none
  private boolean full;

  /**
   * Whether every command has a page stage here, over pages that hold whole rows (an aggregation's
   * or a generator's answer, or events after a {@code table} or {@code fields} fixed their
   * columns): besides {@link PageChain}'s, the commands that need their input in order and whole —
   * {@code sort}, {@code head}, {@code dedup} —, every streaming or centrally run plugin command
   * ({@code accum}, {@code delta}, {@code trendline}, {@code xyseries}, {@code mvcombine}, {@code
   * fillnull}, {@code foreach} …), and the built-in commands written as plugin operators ({@code
   * format}, {@code return}, {@code append}: {@link PageCommands}), their own operators driven as
   * the row engine drives them, on the one ordered stream of pages this side has. The input's pages
   * are the row adapter's batches ({@value PluginOperators#BATCH} rows) sharing one schema (an
   * aggregation's answer, a generator's, events whose columns a {@code table} fixed): a plugin
   * command runs on pages only where its input pages are still those batches (after {@code eval},
   * {@code table}, {@code rename}, {@code bin}, {@code rex}, {@code lookup}, {@code sort}, {@code
   * head}; not after a filter or another plugin command), one reading every field only where they
   * still share that schema; a plugin command {@link PageChain} runs on any pages (one that names
   * its fields, or works field by field) runs here wherever it is. An aggregation is a stage too (a
   * generator's {@code | makeresults | stats}, a second aggregation): its answer is fresh pages of
   * one schema; so is {@code mstats prestats=true append=true} ({@link MstatsAppendStage}).
   */
  public static boolean supports(List<Command> commands) {
    return rebatched(commands, false) != null;
  }

  /**
   * As {@link #supports}, for commands whose input is events (a time-ordered search's): a {@code
   * search} of bare words too, where every command before it keeps the events' raw text ({@link
   * EventText}: its terms matched in the page's {@code _raw} answer as the row command's in the
   * event's raw text).
   */
  public static boolean supportsOverEvents(List<Command> commands) {
    return rebatched(commands, true) != null;
  }

  /**
   * Where {@link #supports} needs the stream re-paged as the row adapter batches it ({@link
   * RowPaging}) before a command: {@code [i]} is true when a plugin command {@code i} reads its
   * input page as the adapter's batch (it types and fills over it, or reads every field) but the
   * pages before it no longer are those batches (filtered, or of several schemas: after another
   * plugin command, {@code sort}, {@code streamstats} …); null when some command has no stage.
   */
  static boolean[] rebatched(List<Command> commands, boolean overEvents) {
    boolean[] rebatch = new boolean[commands.size()];
    boolean eventText = overEvents; // whether _raw is still each event's own raw text
    boolean batches = true; // whether the pages are still the row adapter's batches of the rows
    boolean oneSchema = true; // whether the pages still share the input's one schema
    for (int i = 0; i < commands.size(); i++) {
      Command c = commands.get(i);
      boolean plugin =
          c instanceof PluginCommand command
                  && (command.kind() == CommandKind.STREAMING
                      || command.kind() == CommandKind.CENTRALIZED)
              || isPageCommand(c);
      boolean chainStage = // runs on any pages, as on the map side
          PageChain.supports(List.of(c)) || eventText && EventText.searchesText(c);
      eventText = eventText && EventText.keepsEventText(c);
      if (c instanceof io.quarry.ql.ast.MstatsCommand mstats && mstats.append()) {
        // mstats prestats=true append=true (MstatsAppendStage): the pages before it, then its
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
        // its results: fresh pages of the columns they hold, not the row adapter's batches
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
        // ordered stream, whatever the pages' sizes (StatefulStagesTest compares them with the
        // row operators on random pages); the columns they add may be typed page by page
        oneSchema = false;
        continue;
      }
      if (plugin && !chainStage) {
        if (!batches || readsEveryField(c) && !oneSchema) {
          // the rows re-paged as the adapter would batch them: its pages again, one schema each
          rebatch[i] = true;
          batches = true;
          oneSchema = true;
        }
      } else if (PageAggregator.supports(c)) {
        // an aggregation's answer: fresh pages of its own rows, one schema, the adapter's size
        batches = true;
        oneSchema = true;
        continue;
      } else if (!(c instanceof SortCommand
          || c instanceof HeadCommand
          || c instanceof DedupCommand
          || c instanceof ReorderCommand
          || c instanceof io.quarry.ql.ast.BinCommand // without a span: BinRangeStage
          || chainStage
          || inOrder(c))) {
        return null;
      }
      // a plugin operator types and fills over its input page, which must then be the batch the
      // row adapter would give it: the input's pages (of the adapter's size) cut by head or
      // sorted, not filtered; and a command reading every field must see the columns the
      // adapter's batch has, which a sort's pages (the columns their rows hold values in), a
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
    return rebatch;
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

  /**
   * As {@link #supports}, for pages that hold only the fields the commands read ({@link
   * PageChain#inputFields}, worked out backwards from a page source): no command that reads every
   * field a row has or makes a new table ({@link PageCommands}).
   */
  public static boolean supportsOverReadFields(List<Command> commands) {
    return supports(commands) && commands.stream().noneMatch(PageReduce::readsEveryField);
  }

  /**
   * As {@link #supportsOverReadFields}, for commands whose input is events ({@link
   * #supportsOverEvents}).
   */
  public static boolean supportsOverReadFieldsOverEvents(List<Command> commands) {
    return supportsOverEvents(commands) && commands.stream().noneMatch(PageReduce::readsEveryField);
  }

  /**
   * {@code format}, {@code return}, {@code append}, {@code join} and {@code appendcols} ({@link
   * PageCommands#onPages}: join and appendcols as their page operators, not the row adapter's).
   */
  private static boolean isPageCommand(Command command) {
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
      case EventStatsCommand eventstats -> EventStatsStage.supports(eventstats);
      case StreamStatsCommand streamstats -> StreamStatsStage.supports(streamstats);
      case io.quarry.ql.ast.PluginCommand plugin ->
          plugin.kind() == io.quarry.plugin.api.command.CommandKind.CENTRALIZED
              && IN_ORDER.contains(plugin.name())
              // filldown of every field: a page without a column fills none of it, while the
              // row adapter fills whatever its batches of rows happen to hold: rows only for now
              && !plugin.bound().requiredFields().contains("*");
      default -> false;
    };
  }

  /**
   * The stages of {@code commands} (see {@link #supports}), stages {@code firstStage}, … of the
   * search, feeding {@code end}, which answers false once it takes no more pages.
   */
  public PageReduce(
      List<Command> commands,
      Evaluator evaluator,
      Predicate<Page> end,
      StageStats stats,
      int firstStage,
      int pageSize) {
    this(commands, evaluator, end, stats, firstStage, pageSize, false);
  }

  /**
   * As above; with {@code marksLookupMatches}, each {@code lookup} stage {@code s} adds the boolean
   * column {@link #lookupMatchedColumn}{@code (s)}, true where it found the key, null elsewhere (an
   * event listing replays from it what the row command laid over its rows).
   */
  public PageReduce(
      List<Command> commands,
      Evaluator evaluator,
      Predicate<Page> end,
      StageStats stats,
      int firstStage,
      int pageSize,
      boolean marksLookupMatches) {
    requireNonNull(end, "end is null");
    List<PageChain.Stage> stages = new ArrayList<>(commands.size());
    // the caller decided the commands run here (over events, a search of bare words too)
    boolean[] rebatch = rebatched(commands, true);
    for (int at = 0; at < commands.size(); at++) {
      Command command = commands.get(at);
      PageChain.Stage commandStage =
          switch (command) {
            case SortCommand sort -> new PageSort(sort, pageSize, evaluator.memory(command.name()));
            case HeadCommand head -> {
              Head stage = new Head(head.limit());
              heads.add(stage);
              yield stage;
            }
            case DedupCommand dedup -> dedup(dedup, evaluator, pageSize);
            case io.quarry.ql.ast.MstatsCommand mstats when mstats.append() ->
                new MstatsAppendStage(mstats, evaluator, pageSize, headsFrom(heads.size()));
            case Command aggregation when PageAggregator.supports(aggregation) ->
                new Aggregation(
                    PageAggregator.of(
                        aggregation,
                        evaluator.zone(),
                        evaluator.memory(aggregation.name()),
                        pageSize));
            case ReorderCommand reorder ->
                new PageReorder(reorder, pageSize, evaluator.memory(command.name()));
            case io.quarry.ql.ast.FormatCommand c -> PageChain.stage(PageCommands.of(c), evaluator);
            case io.quarry.ql.ast.ReturnCommand c -> PageChain.stage(PageCommands.of(c), evaluator);
            case io.quarry.ql.ast.SubsearchCommand c ->
                PageChain.stage(PageCommands.onPages(c), evaluator);
            case EventStatsCommand eventstats ->
                new EventStatsStage(eventstats, evaluator.memory(command.name()));
            case StreamStatsCommand streamstats -> new StreamStatsStage(streamstats, evaluator);
            case io.quarry.ql.ast.OutputLookupCommand output -> {
              if (writersAfter < 0) {
                writersAfter = heads.size(); // the heads after it do not stop its input
              }
              yield new OutputLookupStage(
                  output, evaluator.lookupWriter(), evaluator.memory(command.name()));
            }
            case io.quarry.ql.ast.FieldSummaryCommand summary ->
                new FieldSummaryStage(summary, evaluator.memory(command.name()), pageSize);
            case io.quarry.ql.ast.BinCommand bin when !bin.rowLocal() ->
                new BinRangeStage(bin, evaluator.zone(), evaluator.memory(command.name()));
            case io.quarry.ql.ast.TransactionCommand transaction ->
                new TransactionStage(transaction, evaluator, pageSize);
            default ->
                PageChain.stage(
                    command,
                    evaluator,
                    marksLookupMatches ? LookupStage.matchedColumn(firstStage + at) : null);
          };
      stages.add(rebatch != null && rebatch[at] ? RowPaging.before(commandStage) : commandStage);
    }
    this.end = end;
    this.paging = pagedAsRows(commands) ? new RowPaging(pageSize) : null;
    this.chain =
        new PageChain(
            stages,
            paging == null ? this::deliver : page -> paging.add(page, this::deliver),
            stats,
            firstStage);
  }

  /**
   * Whether the answer's pages are paged again as the row engine's collector pages rows ({@link
   * RowPaging}): when a plugin command's operator made them and no {@code table} or {@code fields}
   * after it fixed the columns.
   */
  private static boolean pagedAsRows(List<Command> commands) {
    boolean paged = false;
    for (Command command : commands) {
      if (command instanceof PluginCommand || isPageCommand(command)) {
        paged = true;
      } else if (command instanceof io.quarry.ql.ast.ProjectCommand
          || PageAggregator.supports(command)) {
        paged = false;
      }
    }
    return paged;
  }

  /** {@code dedup}; with {@code sortby}, as on rows, the kept positions sorted afterwards. */
  private static PageChain.Stage dedup(DedupCommand dedup, Evaluator evaluator, int pageSize) {
    PageDedup kept = new PageDedup(dedup, evaluator.memory(dedup.name()));
    if (dedup.sortBy().isEmpty()) {
      return kept;
    }
    PageSort sort =
        new PageSort(
            new SortCommand(0, dedup.sortBy(), dedup.position()),
            pageSize,
            evaluator.memory(dedup.name()));
    return new PageChain.Stage() {
      @Override
      public void add(Page page, Consumer<Page> out) {
        kept.add(page, p -> sort.add(p, out));
      }

      @Override
      public void finish(Consumer<Page> out) {
        kept.finish(p -> sort.add(p, out));
        sort.finish(out);
      }

      @Override
      public void close() {
        kept.close();
        sort.close();
      }
    };
  }

  /**
   * The column in which stage {@code stage}, a {@code lookup}, marks the positions it matched (see
   * the constructor's {@code marksLookupMatches}); the NUL keeps it apart from any field's name.
   */
  public static String lookupMatchedColumn(int stage) {
    return LookupStage.matchedColumn(stage);
  }

  /** Pushes a page through the stages; false once no more input is wanted. */
  public boolean add(Page page) {
    if (wantsNoMore()) {
      return false;
    }
    chain.add(page);
    return !wantsNoMore();
  }

  /** The input is over: the stages hand on what they hold. */
  public void finish() {
    chain.finish();
    if (paging != null) {
      paging.finish(this::deliver);
    }
  }

  private void deliver(Page page) {
    full = full || !end.test(page);
  }

  /** Releases what the stages hold. */
  public void close() {
    chain.close();
    if (paging != null) {
      paging.close();
    }
  }

  /** Whether the answer is full or a head from the {@code first}-th on (one after a stage) is. */
  private java.util.function.BooleanSupplier headsFrom(int first) {
    return () ->
        full || heads.subList(first, heads.size()).stream().anyMatch(h -> h.remaining == 0);
  }

  private boolean wantsNoMore() {
    if (writersAfter >= 0) { // outputlookup takes every row but for a head before it, as on rows
      return heads.subList(0, writersAfter).stream().anyMatch(h -> h.remaining == 0);
    }
    if (full) {
      return true;
    }
    for (Head head : heads) {
      if (head.remaining == 0) {
        return true; // what comes before a head that has its rows is of no use any more
      }
    }
    return false;
  }

  /** {@code head N}: the first N positions, the page that crosses N cut. */
  private static final class Head implements PageChain.Stage {
    private long remaining;

    Head(long limit) {
      this.remaining = limit;
    }

    @Override
    public void add(Page page, Consumer<Page> out) {
      if (remaining == 0) {
        return;
      }
      int count = (int) Math.min(remaining, page.positionCount());
      remaining -= count;
      out.accept(count == page.positionCount() ? page : firstPositions(page, count));
    }
  }

  /** The first {@code count} positions of a page. */
  public static Page firstPositions(Page page, int count) {
    int[] positions = new int[count];
    for (int i = 0; i < count; i++) {
      positions[i] = i;
    }
    return BlockCopies.filter(page, positions, count);
  }

  /**
   * An aggregation ({@code stats}, {@code top}, {@code chart} …) over the pages before it, all of
   * them on this one thread (a generator's, or a second aggregation after the first): its answer
   * pages when the input is over.
   */
  private static final class Aggregation implements PageChain.Stage {
    private final PageAggregator aggregator;

    Aggregation(PageAggregator aggregator) {
      this.aggregator = aggregator;
    }

    @Override
    public void add(Page page, Consumer<Page> out) {
      aggregator.addInput(page);
    }

    @Override
    public void finish(Consumer<Page> out) {
      aggregator.finish();
      while (!aggregator.isFinished()) {
        Page page = aggregator.getOutput();
        if (page == null) {
          throw new IllegalStateException("a finished page aggregation gave no page");
        }
        out.accept(page);
      }
    }

    @Override
    public void close() {
      aggregator.close();
    }
  }
}
