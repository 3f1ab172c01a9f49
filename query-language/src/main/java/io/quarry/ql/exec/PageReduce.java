package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.PageTransformOperator;
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
import java.util.Map;
import java.util.function.Predicate;

/**
 * The commands after an aggregation, on its pages: {@code sort} ({@link PageSort}), {@code head},
 * {@code dedup} ({@link PageDedup}, its {@code sortby} a {@link PageSort} after it), {@code
 * reverse} and {@code tail} ({@link PageReorder}), {@code eventstats} ({@link EventStatsOperator}),
 * {@code streamstats} ({@link StreamStatsOperator}), {@code transaction} ({@link
 * TransactionOperator}), {@code bin bins=N} ({@link BinRangeOperator}: the span from the whole
 * input's range), {@code fieldsummary} ({@link FieldSummaryOperator}), {@code outputlookup} ({@link
 * OutputLookupOperator}), the built-in page operators that carry state from position to position
 * ({@code accum}, {@code delta} …), aggregations, plugin commands and the built-in commands written
 * as plugin operators ({@link PageCommands}), and every command {@link PageChain} runs on pages
 * ({@code eval}, {@code where}, {@code fields}, {@code rename}, {@code bin}, streaming plugin
 * commands …), one pull operator each (a stage of the search's stats), run in order by one {@link
 * Driver} into the search's answer. The reduce side of a batch search when all of its commands are
 * of these kinds ({@link ReduceCoverage}). Pulled ({@link #pullFrom}, {@link #run}: from a scan, a
 * {@link PagesSource}, an {@link OutputSource}) its source is finished and closed once nothing more
 * is wanted — a {@code head} has its rows, or the answer is full; pushed ({@link #add}: the
 * time-ordered aggregation and listing sides, the chains over a plugin's or a rename's batches)
 * {@code add} answers false then.
 */
public final class PageReduce {
  private Driver driver;
  private final List<Driver.Step> steps; // the stages', for a pulling driver (pullFrom)
  private final StageStats stats;
  private final io.quarry.plugin.api.command.OperatorContext context;
  private final Predicate<Page> end;
  // the plugin factory the input state pages are reserved on (afterMapSide); null: pages as given
  private final io.quarry.plugin.api.data.BlockFactory states;
  private final List<Head> heads = new ArrayList<>();
  private int writersAfter = -1; // the heads before the first outputlookup; -1: none
  private boolean full;

  /**
   * The stages of {@code commands} (see {@link ReduceCoverage#supports}), stages {@code
   * firstStage}, … of the search, feeding {@code end}, which answers false once it takes no more
   * pages.
   */
  public PageReduce(
      List<Command> commands,
      Evaluator evaluator,
      Predicate<Page> end,
      StageStats stats,
      int firstStage,
      int pageSize) {
    this(commands, evaluator, end, stats, firstStage, pageSize, false, Map.of(), Input.EVENTS);
  }

  /**
   * As above, for an event listing: each {@code lookup}, {@code rex} and {@code rename} stage
   * {@code s} adds, for each field {@code f} it sets, the boolean column {@link #setColumn}{@code
   * (s, f)}, true where it set {@code f} (a lookup: the key matched and, with {@code OUTPUTNEW},
   * the field had no value; a rex: it found a value; a rename {@code a AS f}: {@code a} had a value
   * and moved), null elsewhere; and after each stage {@code s} that {@code marksValues} names (by
   * its number in the search), for each field {@code f} it lists the boolean column {@link
   * ListingMarks#valueColumn}{@code (s, f)}, true where {@code f}'s column then holds a value, null
   * elsewhere: from them the listing replays what the commands laid over its rows ({@code
   * ListedFields}), a field a later command sets again included.
   */
  public PageReduce(
      List<Command> commands,
      Evaluator evaluator,
      Predicate<Page> end,
      StageStats stats,
      int firstStage,
      int pageSize,
      boolean marksSetFields,
      Map<Integer, List<String>> marksValues) {
    this(
        commands,
        evaluator,
        end,
        stats,
        firstStage,
        pageSize,
        marksSetFields,
        marksValues,
        marksSetFields ? Input.EVENTS_WITH_OWN_TEXT : Input.EVENTS);
  }

  /** What the input pages' rows are, for a {@code search} of bare words among the commands. */
  private enum Input {
    /** Events, {@code _raw} their own text ({@link ReduceCoverage#supportsOverEvents}). */
    EVENTS,
    /**
     * Events carrying their own text in {@link EventText#OWN_RAW} ({@link
     * ReduceCoverage#supportsOverEventsWithOwnText}).
     */
    EVENTS_WITH_OWN_TEXT,
    /** Rows that are not events ({@link ReduceCoverage#supportsOverResults}). */
    RESULTS,
    /**
     * The state pages of the first command's map side, a transforming plugin's that ran elsewhere
     * ({@link #afterMapSide}); its answer rows that are not events.
     */
    MAP_STATES
  }

  /**
   * The stages of {@code commands} over rows that are not events — an aggregation's answer, a
   * generator's, a metric command's ({@link ReduceCoverage#supportsOverResults}): a {@code search}
   * of bare words there matches a row's field values ({@code io.quarry.ql.eval.FieldValueTerm}), or
   * its {@code _raw} where an {@code eval} gave it one.
   */
  public static PageReduce overResults(
      List<Command> commands,
      Evaluator evaluator,
      Predicate<Page> end,
      StageStats stats,
      int firstStage,
      int pageSize) {
    return new PageReduce(
        commands, evaluator, end, stats, firstStage, pageSize, false, Map.of(), Input.RESULTS);
  }

  /**
   * The reduce side of a batch search whose first command, a transforming plugin command ({@link
   * TransformingPlugin}), ran its map side in the scan's slices: its input is that map side's state
   * pages (reserved on the search's plugin block factory; each one this takes is its reduce
   * operator's, timed as stage {@code firstStage}, its rows counted there by the map side; one
   * given when nothing more is wanted is released), then the commands after it over its answer as
   * {@link #overResults} runs them.
   */
  public static PageReduce afterMapSide(
      List<Command> commands,
      Evaluator evaluator,
      Predicate<Page> end,
      StageStats stats,
      int firstStage,
      int pageSize) {
    if (commands.isEmpty() || !TransformingPlugin.supports(commands.getFirst())) {
      throw new IllegalArgumentException("not after a transforming plugin command: " + commands);
    }
    return new PageReduce(
        commands, evaluator, end, stats, firstStage, pageSize, false, Map.of(), Input.MAP_STATES);
  }

  /**
   * The stages of {@code commands} over pages of events that carry each event's own raw text
   * ({@link EventText#withOwnText}; {@link ReduceCoverage#supportsOverEventsWithOwnText}): a {@code
   * search} of bare words matches that text, as an event row asks its event, also after {@code eval
   * _raw=…}, {@code append} or {@code join}; {@code append}'s subsearch rows match none.
   */
  public static PageReduce overEventsWithOwnText(
      List<Command> commands,
      Evaluator evaluator,
      Predicate<Page> end,
      StageStats stats,
      int firstStage,
      int pageSize) {
    return new PageReduce(
        commands,
        evaluator,
        end,
        stats,
        firstStage,
        pageSize,
        false,
        Map.of(),
        Input.EVENTS_WITH_OWN_TEXT);
  }

  private PageReduce(
      List<Command> commands,
      Evaluator evaluator,
      Predicate<Page> end,
      StageStats stats,
      int firstStage,
      int pageSize,
      boolean marksSetFields,
      Map<Integer, List<String>> marksValues,
      Input input) {
    requireNonNull(end, "end is null");
    boolean overResults = input == Input.RESULTS || input == Input.MAP_STATES;
    boolean mapSideRan = input == Input.MAP_STATES;
    boolean ownText = input == Input.EVENTS_WITH_OWN_TEXT;
    List<Driver.Step> steps = new ArrayList<>(commands.size());
    // the caller decided the commands run here (over events, a search of bare words too)
    // a listing's pages (marksSetFields) carry the events' own text where a command changed _raw
    boolean[] rebatch = ReduceCoverage.rebatched(commands, !overResults, overResults, ownText);
    boolean[] listed = RowPaging.listedColumns(commands);
    try { // an operator over the memory limit already when made: the ones before it closed
      for (int at = 0; at < commands.size(); at++) {
        Command command = commands.get(at);
        int stage = firstStage + at;
        if (rebatch != null
            && rebatch[at]) { // re-paged before it: time its own, rows its command's
          steps.add(new Driver.Step(RowPaging.batches(listed[at]), stage, false));
        }
        List<Operator> helpers = List.of(); // after it, sharing its stage: their time only
        boolean countsRows = true;
        Operator commandOperator =
            switch (command) {
              case SortCommand sort ->
                  new PageSort(sort, pageSize, evaluator.memory(command.name()), listed[at]);
              case HeadCommand head -> {
                Head operator = new Head(head.limit());
                heads.add(operator);
                yield operator;
              }
              case DedupCommand dedup ->
                  new PageDedup(dedup, evaluator.memory(dedup.name())); // sortby: a sort after it
              case io.quarry.ql.ast.MstatsCommand mstats when mstats.append() ->
                  new MstatsAppendOperator(mstats, evaluator, pageSize, headsFrom(heads.size()));
              case PluginCommand plugin when TransformingPlugin.supports(plugin) -> {
                // its map side (unless it ran in the scan's slices: then the states come in),
                // then its reduce operator and the answer re-paged
                boolean mapped = mapSideRan && at == 0;
                List<Operator> operators =
                    mapped
                        ? TransformingPlugin.reduceSide(plugin, evaluator, pageSize, true)
                        : TransformingPlugin.operators(plugin, evaluator, pageSize);
                countsRows = !mapped;
                helpers = operators.subList(1, operators.size());
                yield operators.getFirst();
              }
              case Command aggregation when PageAggregator.supports(aggregation) ->
                  // over the pages before it, all of them on this one thread (a generator's, or a
                  // second aggregation after the first): its answer pages when the input is over
                  PageAggregator.of(aggregation, evaluator, pageSize);
              case ReorderCommand reorder ->
                  new PageReorder(reorder, pageSize, evaluator.memory(command.name()), listed[at]);
              case io.quarry.ql.ast.FormatCommand c ->
                  PageChain.operator(PageCommands.of(c), evaluator);
              case io.quarry.ql.ast.ReturnCommand c ->
                  PageChain.operator(PageCommands.of(c), evaluator);
              case io.quarry.ql.ast.SubsearchCommand c ->
                  PageChain.operator(PageCommands.onPages(c), evaluator);
              case EventStatsCommand eventstats ->
                  new EventStatsOperator(eventstats, evaluator.memory(command.name()));
              case StreamStatsCommand streamstats ->
                  new StreamStatsOperator(streamstats, evaluator);
              case io.quarry.ql.ast.OutputLookupCommand output -> {
                if (writersAfter < 0) {
                  writersAfter = heads.size(); // the heads after it do not stop its input
                }
                yield new OutputLookupOperator(
                    output, evaluator.lookupWriter(), evaluator.memory(command.name()));
              }
              case io.quarry.ql.ast.FieldSummaryCommand summary ->
                  new FieldSummaryOperator(summary, evaluator.memory(command.name()), pageSize);
              case io.quarry.ql.ast.BinCommand bin when !bin.rowLocal() ->
                  new BinRangeOperator(bin, evaluator.zone(), evaluator.memory(command.name()));
              case io.quarry.ql.ast.TransactionCommand transaction ->
                  new TransactionOperator(transaction, evaluator, pageSize);
              default ->
                  PageChain.operator(
                      command, evaluator, marksSetFields ? setColumns(firstStage + at) : null);
            };
        steps.add(new Driver.Step(commandOperator, stage, countsRows));
        for (Operator helper : helpers) {
          steps.add(new Driver.Step(helper, stage, false));
        }
        // operators that finish the command's work share its stage: their time, not its rows
        if (command instanceof DedupCommand dedup && !dedup.sortBy().isEmpty()) {
          SortCommand sortBy = new SortCommand(0, dedup.sortBy(), dedup.position());
          steps.add(
              new Driver.Step(
                  new PageSort(sortBy, pageSize, evaluator.memory(dedup.name()), listed[at]),
                  stage,
                  false));
        }
        if (ownText
            && command instanceof io.quarry.ql.ast.SubsearchCommand c
            && c.kind() != io.quarry.ql.ast.SubsearchCommand.Kind.JOIN) {
          steps.add(new Driver.Step(EventText.markingOtherRows(), stage, false));
        }
        List<String> valued = marksValues.get(stage);
        if (valued != null) {
          steps.add(new Driver.Step(ListingMarks.valuesAfter(stage, valued), stage, false));
        }
      }
    } catch (RuntimeException e) {
      throw Driver.closeBuilt(steps, e);
    }
    this.end = end;
    this.states = mapSideRan ? evaluator.pluginContext().blockFactory() : null;
    if (pagedAsRows(commands)) { // the answer re-paged: counted nowhere
      steps.add(Driver.Step.uncounted(new RowPaging(pageSize)));
    }
    this.steps = steps;
    this.stats = stats;
    this.context = evaluator.pluginContext();
    this.driver = new Driver(steps, this::deliver, stats, context);
  }

  /**
   * Pull mode: the stages take their pages from {@code source} (an operator that needs no input, a
   * scan handing a page per {@code getOutput}), which {@link #run} pulls; call it before anything
   * else. The source is finished, closed and so stops reading once nothing more is wanted — a
   * {@code head} has its rows, or the answer is full — as an {@link #add} then answers false.
   */
  public void pullFrom(Operator source) {
    List<Driver.Step> pulled = new ArrayList<>(steps.size() + 2);
    pulled.add(Driver.Step.uncounted(requireNonNull(source, "source is null")));
    pulled.add(Driver.Step.uncounted(new Wanted()));
    pulled.addAll(steps);
    driver = new Driver(pulled, this::deliver, stats, context);
  }

  /**
   * Pulls the source's pages through the stages ({@link #pullFrom}) until the last is finished: the
   * source ended, or nothing more was wanted; checks the search's cancellation on every pass.
   */
  public void run() {
    driver.run();
  }

  /**
   * Whether the answer's pages are paged again, {@code pageSize} rows a page ({@link RowPaging}):
   * when a plugin command's operator made them and no {@code table} or {@code fields} after it
   * fixed the columns. A transforming plugin command's reduce side re-pages its answer itself
   * ({@link TransformingPlugin#reduceSide}), so its pages need no second re-paging.
   */
  private static boolean pagedAsRows(List<Command> commands) {
    boolean paged = false;
    for (Command command : commands) {
      if (TransformingPlugin.supports(command)) {
        paged = false;
      } else if (command instanceof PluginCommand || ReduceCoverage.isPageCommand(command)) {
        paged = true;
      } else if (command instanceof io.quarry.ql.ast.ProjectCommand
          || PageAggregator.supports(command)) {
        paged = false;
      }
    }
    return paged;
  }

  /** The marker columns of stage {@code stage}, by the field each marks. */
  private static java.util.function.UnaryOperator<String> setColumns(int stage) {
    return field -> ListingMarks.setColumn(stage, field);
  }

  /** Pushes a page through the stages; false once no more input is wanted. */
  public boolean add(Page page) {
    if (wantsNoMore()) {
      if (states != null) {
        states.release(page); // a map side's state page, reserved: untaken, given back
      }
      return false;
    }
    driver.add(page);
    return !wantsNoMore();
  }

  /** The input is over: the operators hand on what they hold. */
  public void finish() {
    driver.finish();
  }

  private void deliver(Page page) {
    full = full || !end.test(page);
  }

  /** The chain's operators, in order, unstarted (the operator test harness drives them itself). */
  List<Operator> operators() {
    return driver.operators();
  }

  /** Releases what the operators hold. */
  public void close() {
    driver.close();
  }

  /** Whether the answer is full or a head from the {@code first}-th on (one after a stage) is. */
  private java.util.function.BooleanSupplier headsFrom(int first) {
    return () ->
        full || heads.subList(first, heads.size()).stream().anyMatch(h -> h.remaining == 0);
  }

  private boolean wantsNoMore() {
    if (writersAfter >= 0) { // outputlookup takes every row but for a head before it
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

  /**
   * Between a pulled source and the stages: passes its pages on, and is finished once nothing more
   * is wanted ({@link #wantsNoMore}), so the driver finishes and closes the source.
   */
  private final class Wanted implements Operator {
    private Page held;
    private boolean finishing;

    @Override
    public boolean needsInput() {
      return held == null && !finishing && !wantsNoMore();
    }

    @Override
    public void addInput(Page page) {
      held = page;
    }

    @Override
    public Page getOutput() {
      Page out = held;
      held = null;
      return out;
    }

    @Override
    public void finish() {
      finishing = true;
    }

    @Override
    public boolean isFinished() {
      return held == null && (finishing || wantsNoMore());
    }

    @Override
    public void close() {
      held = null;
    }
  }

  /** {@code head N}: the first N positions, the page that crosses N cut. */
  private static final class Head extends PageTransformOperator {
    private long remaining;

    Head(long limit) {
      this.remaining = limit;
    }

    @Override
    protected Page process(Page page) {
      if (remaining == 0) {
        return null;
      }
      int count = (int) Math.min(remaining, page.positionCount());
      remaining -= count;
      return count == page.positionCount() ? page : firstPositions(page, count);
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
}
