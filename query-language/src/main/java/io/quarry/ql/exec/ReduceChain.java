package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.DedupCommand;
import io.quarry.ql.ast.EventStatsCommand;
import io.quarry.ql.ast.HeadCommand;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.ast.ReorderCommand;
import io.quarry.ql.ast.SortCommand;
import io.quarry.ql.ast.StreamStatsCommand;
import io.quarry.ql.engine.aggregation.PageAggregator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Builds the steps of one {@link PageReduce}: runs of commands in order, each run over its own kind
 * of input rows — events ({@link #overEvents}), events carrying their own text ({@link
 * #overEventsWithOwnText}), an event listing's marking stages ({@link #marking}), rows that are no
 * events ({@link #overResults}: an aggregation's answer and what follows it) — and operators
 * between runs ({@link #then}: a listing that lays the events out), so a time-ordered search's
 * commands before an aggregation and the aggregation with the commands after it are one pulled
 * chain. Each command is one pull operator, a stage of the search's stats ({@code sort} as {@link
 * PageSort}, {@code head}, {@code dedup} as {@link PageDedup} with its {@code sortby} a {@link
 * PageSort} after it, aggregations, plugin commands, the {@link PageChain} stages …); {@link #into}
 * hands the chain to its answer's end.
 */
public final class ReduceChain {
  private final Evaluator evaluator;
  private final StageStats stats;
  private final int pageSize;
  final List<Driver.Step> steps = new ArrayList<>();
  final ReduceHeads heads = new ReduceHeads();
  private boolean built; // into: the steps are a reduce's

  private ReduceChain(Evaluator evaluator, StageStats stats, int pageSize) {
    this.evaluator = requireNonNull(evaluator, "evaluator is null");
    this.stats = requireNonNull(stats, "stats is null");
    this.pageSize = pageSize;
  }

  /**
   * A chain of no steps yet, counting into {@code stats}, its answer in pages of {@code pageSize}.
   */
  public static ReduceChain of(Evaluator evaluator, StageStats stats, int pageSize) {
    return new ReduceChain(evaluator, stats, pageSize);
  }

  /**
   * What the input rows of a run of commands are, for a {@code search} of bare words among them.
   */
  enum Input {
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
     * ({@link PageReduce#afterMapSide}); its answer rows that are not events.
     */
    MAP_STATES
  }

  /** {@code commands}, stages {@code firstStage}, … of the search, over events. */
  public ReduceChain overEvents(List<Command> commands, int firstStage) {
    return add(commands, firstStage, false, Map.of(), Input.EVENTS);
  }

  /**
   * {@code commands} over pages of events that carry each event's own raw text ({@link
   * EventText#withOwnText}): a {@code search} of bare words matches that text, as an event row asks
   * its event, also after {@code eval _raw=…}, {@code append} or {@code join}; {@code append}'s
   * subsearch rows match none.
   */
  public ReduceChain overEventsWithOwnText(List<Command> commands, int firstStage) {
    return add(commands, firstStage, false, Map.of(), Input.EVENTS_WITH_OWN_TEXT);
  }

  /**
   * {@code commands} over rows that are not events — an aggregation's answer, a generator's, a
   * metric command's ({@link ReduceCoverage#supportsOverResults}): a {@code search} of bare words
   * there matches a row's field values ({@code io.quarry.ql.eval.FieldValueTerm}), or its {@code
   * _raw} where an {@code eval} gave it one.
   */
  public ReduceChain overResults(List<Command> commands, int firstStage) {
    return add(commands, firstStage, false, Map.of(), Input.RESULTS);
  }

  /**
   * {@code commands} over an event listing's events (their own text carried): each {@code lookup},
   * {@code rex} and {@code rename} stage {@code s} adds, for each field {@code f} it sets, the
   * boolean column {@link ListingMarks#setColumn}{@code (s, f)}, true where it set {@code f} (a
   * lookup: the key matched and, with {@code OUTPUTNEW}, the field had no value; a rex: it found a
   * value; a rename {@code a AS f}: {@code a} had a value and moved), null elsewhere; and after
   * each stage {@code s} that {@code marksValues} names (by its number in the search), for each
   * field {@code f} it lists the boolean column {@link ListingMarks#valueColumn}{@code (s, f)},
   * true where {@code f}'s column then holds a value, null elsewhere: from them the listing replays
   * what the commands laid over its rows ({@code ListedFields}), a field a later command sets again
   * included.
   */
  public ReduceChain marking(
      List<Command> commands, int firstStage, Map<Integer, List<String>> marksValues) {
    return add(commands, firstStage, true, marksValues, Input.EVENTS_WITH_OWN_TEXT);
  }

  /** The state pages of a transforming plugin's map side, then the commands after it. */
  ReduceChain afterMapSide(List<Command> commands, int firstStage) {
    return add(commands, firstStage, false, Map.of(), Input.MAP_STATES);
  }

  /**
   * {@code operator} next, counted nowhere (its callers count what it does): one that lays the
   * pages out anew between two runs of commands.
   */
  public ReduceChain then(Operator operator) {
    unbuilt();
    steps.add(Driver.Step.uncounted(requireNonNull(operator, "operator is null")));
    return this;
  }

  /** {@code operator} next, a command's: its rows and time counted as stage {@code stage}. */
  public ReduceChain then(Operator operator, int stage) {
    unbuilt();
    steps.add(Driver.Step.counted(requireNonNull(operator, "operator is null"), stage));
    return this;
  }

  /**
   * {@code operator} next, counted nowhere, writing every row it passes (a time-ordered {@code
   * outputlookup}'s table): as an {@code outputlookup} stage, it takes every row the heads before
   * it let through, whatever finishes after it ({@link Driver.Step#writes}); the commands after it
   * are given no more pages once their answer is complete ({@link ReduceHeads#writer}).
   */
  public ReduceChain thenWriting(Operator operator) {
    unbuilt();
    steps.add(Driver.Step.writing(requireNonNull(operator, "operator is null")));
    steps.add(Driver.Step.uncounted(heads.writer()));
    return this;
  }

  /**
   * Closes the steps made so far, as making the chain failed with {@code failure} (no driver will
   * close them): what they reserved is released, once — a failed {@code add} closed them already,
   * and the chain takes no more steps. The failure to throw.
   */
  public RuntimeException closeBuilt(RuntimeException failure) {
    built = true;
    List<Driver.Step> made = List.copyOf(steps);
    steps.clear();
    return Driver.closeBuilt(made, failure);
  }

  /** The chain, its answer's pages into {@code end}, which answers false once it takes no more. */
  public PageReduce into(Predicate<Page> end) {
    unbuilt();
    built = true;
    return new PageReduce(this, end);
  }

  private void unbuilt() {
    if (built) {
      throw new IllegalStateException("the chain's steps are one reduce's already, or closed");
    }
  }

  StageStats stats() {
    return stats;
  }

  io.quarry.plugin.api.command.OperatorContext context() {
    return evaluator.pluginContext();
  }

  private ReduceChain add(
      List<Command> commands,
      int firstStage,
      boolean marksSetFields,
      Map<Integer, List<String>> marksValues,
      Input input) {
    unbuilt();
    try { // an operator over the memory limit already when made: the ones before it closed
      addSteps(commands, firstStage, marksSetFields, marksValues, input);
    } catch (RuntimeException e) {
      throw closeBuilt(e);
    }
    if (pagedAsRows(commands)) { // the answer re-paged: counted nowhere
      steps.add(Driver.Step.uncounted(new RowPaging(pageSize)));
    }
    return this;
  }

  private void addSteps(
      List<Command> commands,
      int firstStage,
      boolean marksSetFields,
      Map<Integer, List<String>> marksValues,
      Input input) {
    boolean overResults = input == Input.RESULTS || input == Input.MAP_STATES;
    boolean mapSideRan = input == Input.MAP_STATES;
    boolean ownText = input == Input.EVENTS_WITH_OWN_TEXT;
    // the caller decided the commands run here (over events, a search of bare words too)
    // a listing's pages (marksSetFields) carry the events' own text where a command changed _raw
    boolean[] rebatch = ReduceCoverage.rebatched(commands, !overResults, overResults, ownText);
    boolean[] listed = RowPaging.listedColumns(commands);
    for (int at = 0; at < commands.size(); at++) {
      Command command = commands.get(at);
      int stage = firstStage + at;
      if (rebatch != null && rebatch[at]) { // re-paged before it: time its own, rows its command's
        steps.add(new Driver.Step(RowPaging.batches(listed[at]), stage, false));
      }
      List<Operator> helpers = List.of(); // after it, sharing its stage: their time only
      boolean countsRows = true;
      Operator commandOperator =
          switch (command) {
            case SortCommand sort ->
                new PageSort(sort, pageSize, evaluator.memory(command.name()), listed[at]);
            case HeadCommand head -> heads.head(head.limit());
            case DedupCommand dedup ->
                new PageDedup(dedup, evaluator.memory(dedup.name())); // sortby: a sort after it
            case io.quarry.ql.ast.MstatsCommand mstats when mstats.append() ->
                new MstatsAppendOperator(mstats, evaluator, pageSize, heads.fromNext());
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
            case StreamStatsCommand streamstats -> new StreamStatsOperator(streamstats, evaluator);
            case io.quarry.ql.ast.OutputLookupCommand output ->
                new OutputLookupOperator(
                    output, evaluator.lookupWriter(), evaluator.memory(command.name()));
            case io.quarry.ql.ast.FieldSummaryCommand summary ->
                new FieldSummaryOperator(summary, evaluator.memory(command.name()), pageSize);
            case io.quarry.ql.ast.BinCommand bin when !bin.rowLocal() ->
                new BinRangeOperator(bin, evaluator.zone(), evaluator.memory(command.name()));
            case io.quarry.ql.ast.TransactionCommand transaction ->
                new TransactionOperator(transaction, evaluator, pageSize);
            default ->
                PageChain.operator(command, evaluator, marksSetFields ? setColumns(stage) : null);
          };
      boolean writes = command instanceof io.quarry.ql.ast.OutputLookupCommand;
      steps.add(new Driver.Step(commandOperator, stage, countsRows, writes));
      if (writes) { // the heads after it do not stop its input; a gate after it stops the rest
        steps.add(Driver.Step.uncounted(heads.writer()));
      }
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
}
