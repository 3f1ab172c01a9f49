package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.DedupCommand;
import io.quarry.ql.ast.EventStatsCommand;
import io.quarry.ql.ast.HeadCommand;
import io.quarry.ql.ast.SortCommand;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.ast.StreamStatsCommand;
import io.quarry.ql.engine.BlockCopies;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The commands after an aggregation, on its pages: {@code sort} ({@link PageSort}), {@code head},
 * {@code dedup} ({@link PageDedup}, its {@code sortby} a {@link PageSort} after it), {@code
 * eventstats} ({@link EventStatsStage}), {@code streamstats} ({@link StreamStatsStage}), {@code
 * stats} ({@link AggregationStage}: after a generator or another aggregation) and the built-in page
 * operators {@code accum}, {@code delta}, {@code autoregress}, {@code trendline}, {@code filldown}
 * — the commands that depend on the order of all the pages, so never on a map side — and every
 * command {@link PageChain} runs on pages ({@code eval}, {@code where}, {@code fields}, {@code
 * rename}, {@code bin}, streaming plugin commands …), one stage each, in order, into the search's
 * answer. The reduce side of a batch search when all of its commands are of these kinds; otherwise
 * the aggregation's pages go through the row commands. {@link #add} says when nothing more is
 * wanted: a {@code head} has its rows, or the answer is full.
 */
public final class PageReduce {
  private final PageChain chain;
  private final List<Head> heads = new ArrayList<>();
  private boolean full;

  /** Whether every command has a page stage here. */
  public static boolean supports(List<Command> commands) {
    return commands.stream()
        .allMatch(
            c ->
                c instanceof SortCommand
                    || c instanceof HeadCommand
                    || c instanceof DedupCommand
                    || c instanceof StatsCommand stats && AggregationStage.supports(stats)
                    || inOrder(c)
                    || PageChain.supports(List.of(c)));
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
    requireNonNull(end, "end is null");
    List<PageChain.Stage> stages = new ArrayList<>(commands.size());
    for (Command command : commands) {
      stages.add(
          switch (command) {
            case SortCommand sort -> new PageSort(sort, pageSize, evaluator.memory(command.name()));
            case HeadCommand head -> {
              Head stage = new Head(head.limit());
              heads.add(stage);
              yield stage;
            }
            case DedupCommand dedup -> dedup(dedup, evaluator, pageSize);
            case StatsCommand aggregation ->
                new AggregationStage(aggregation, evaluator.memory(command.name()), pageSize);
            case EventStatsCommand eventstats ->
                new EventStatsStage(eventstats, evaluator.memory(command.name()));
            case StreamStatsCommand streamstats -> new StreamStatsStage(streamstats, evaluator);
            default -> PageChain.stage(command, evaluator);
          });
    }
    this.chain = new PageChain(stages, page -> full = full || !end.test(page), stats, firstStage);
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
  }

  /** Releases what the stages hold. */
  public void close() {
    chain.close();
  }

  private boolean wantsNoMore() {
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
}
