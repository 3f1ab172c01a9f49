package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.engine.BlockCopies;
import java.util.ArrayList;
import java.util.List;
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
 * commands …), one pull operator each (a stage of the search's stats; {@link ReduceChain} makes
 * them, a run of commands over events and the aggregation's run over results one chain), run in
 * order by one {@link Driver} into the search's answer. The reduce side of a batch search when all
 * of its commands are of these kinds ({@link ReduceCoverage}), and a time-ordered search's stages.
 * Pulled ({@link #pullFrom}, {@link #run}: from a scan, a {@link PagesSource}, an {@link
 * OutputSource}), its source is finished and closed once nothing more is wanted ({@link
 * ReduceHeads}) — a {@code head} has its rows, or the answer is full.
 */
public final class PageReduce {
  private final List<Driver.Step> steps; // the stages', after the source (pullFrom)
  private final ReduceHeads heads;
  private final StageStats stats;
  private final OperatorContext context;
  private final Predicate<Page> end;
  private Driver driver; // once pulling (pullFrom)

  /**
   * The stages of {@code commands} over events (see {@link ReduceCoverage#supports}), stages {@code
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
    this(ReduceChain.of(evaluator, stats, pageSize).overEvents(commands, firstStage), end);
  }

  /** {@code chain}'s steps ({@link ReduceChain#into}), its answer into {@code end}. */
  PageReduce(ReduceChain chain, Predicate<Page> end) {
    this.end = requireNonNull(end, "end is null");
    this.steps = List.copyOf(chain.steps);
    this.heads = chain.heads;
    this.stats = chain.stats();
    this.context = chain.context();
  }

  /**
   * The stages of {@code commands} over rows that are not events ({@link ReduceChain#overResults}).
   */
  public static PageReduce overResults(
      List<Command> commands,
      Evaluator evaluator,
      Predicate<Page> end,
      StageStats stats,
      int firstStage,
      int pageSize) {
    return ReduceChain.of(evaluator, stats, pageSize).overResults(commands, firstStage).into(end);
  }

  /**
   * The reduce side of a batch search whose first command, a transforming plugin command ({@link
   * TransformingPlugin}), ran its map side in the scan's slices: its input is that map side's state
   * pages (reserved on the search's plugin block factory; each one this takes is its reduce
   * operator's, timed as stage {@code firstStage}, its rows counted there by the map side; those
   * never pulled stay with the source), then the commands after it over its answer as {@link
   * #overResults} runs them.
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
    return ReduceChain.of(evaluator, stats, pageSize).afterMapSide(commands, firstStage).into(end);
  }

  /**
   * The stages of {@code commands} over pages of events that carry each event's own raw text
   * ({@link ReduceChain#overEventsWithOwnText}).
   */
  public static PageReduce overEventsWithOwnText(
      List<Command> commands,
      Evaluator evaluator,
      Predicate<Page> end,
      StageStats stats,
      int firstStage,
      int pageSize) {
    return ReduceChain.of(evaluator, stats, pageSize)
        .overEventsWithOwnText(commands, firstStage)
        .into(end);
  }

  /**
   * The stages take their pages from {@code source} (an operator that needs no input, a scan
   * handing a page per {@code getOutput}), which {@link #run} pulls; call it once, before {@link
   * #run}. The source is finished, closed and so stops reading once nothing more is wanted — a
   * {@code head} has its rows, or the answer is full.
   */
  public void pullFrom(Operator source) {
    if (driver != null) {
      throw new IllegalStateException("the chain already has its source");
    }
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
    if (driver == null) {
      throw new IllegalStateException("no source to pull from: call pullFrom first");
    }
    driver.run();
  }

  private void deliver(Page page) {
    if (!end.test(page)) {
      heads.full();
    }
  }

  /** The chain's operators, in order, unstarted (the operator test harness drives them itself). */
  List<Operator> operators() {
    return steps.stream().map(Driver.Step::operator).toList();
  }

  /** Releases what the operators (and the source, once pulling) hold. */
  public void close() {
    if (driver == null) {
      driver = new Driver(steps, this::deliver, stats, context);
    }
    driver.close();
  }

  /**
   * Between a pulled source and the stages: passes its pages on, and is finished once nothing more
   * is wanted ({@link ReduceHeads#wantsNoMore}), so the driver finishes and closes the source.
   */
  private final class Wanted implements Operator {
    private Page held;
    private boolean finishing;

    @Override
    public boolean needsInput() {
      return held == null && !finishing && !heads.wantsNoMore();
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
      return held == null && (finishing || heads.wantsNoMore());
    }

    @Override
    public void close() {
      held = null;
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
