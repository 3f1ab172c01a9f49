package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.DedupCommand;
import io.quarry.ql.ast.FormatCommand;
import io.quarry.ql.ast.HeadCommand;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.ast.ReturnCommand;
import io.quarry.ql.ast.SortCommand;
import io.quarry.ql.ast.SubsearchCommand;
import io.quarry.ql.engine.BlockCopies;
import io.quarry.ql.engine.aggregation.PageAggregator;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The commands after an aggregation, on its pages: {@code sort} ({@link PageSort}), {@code head},
 * {@code dedup} ({@link PageDedup}, its {@code sortby} a {@link PageSort} after it), and every
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

  /**
   * Whether every command has a page stage here: besides {@link PageChain}'s, a streaming plugin
   * command that reads every field and a centralized one (the built-in {@code fillnull} of every
   * field, {@code addtotals}, {@code foreach}, {@code convert auto(*)} …) and the built-in page
   * commands {@code format}, {@code return} and {@code append} ({@link PageCommands}; not {@code
   * join}/{@code appendcols}, whose operators answer by the row adapter's hidden row column), and
   * {@code mstats prestats=true append=true} ({@link MstatsAppendStage}): here the pages hold every
   * field their results have and arrive in order on one thread, so the command's own operator is
   * driven over them as it is.
   */
  public static boolean supports(List<Command> commands) {
    return commands.stream()
        .allMatch(
            c ->
                c instanceof SortCommand
                    || c instanceof HeadCommand
                    || c instanceof DedupCommand
                    || PageAggregator.supports(c)
                    || c instanceof FormatCommand
                    || c instanceof ReturnCommand
                    || c instanceof SubsearchCommand sub
                        && sub.kind() == SubsearchCommand.Kind.APPEND
                    || c instanceof io.quarry.ql.ast.MstatsCommand mstats && mstats.append()
                    || c instanceof PluginCommand plugin
                        && (plugin.kind() == CommandKind.STREAMING
                            || plugin.kind() == CommandKind.CENTRALIZED)
                    || PageChain.supports(List.of(c)));
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
            case FormatCommand format ->
                new PageChain.PluginStage(PageCommands.of(format), evaluator);
            case ReturnCommand ret -> new PageChain.PluginStage(PageCommands.of(ret), evaluator);
            case SubsearchCommand sub -> new PageChain.PluginStage(PageCommands.of(sub), evaluator);
            case io.quarry.ql.ast.MstatsCommand mstats when mstats.append() ->
                new MstatsAppendStage(mstats, evaluator, pageSize, headsFrom(heads.size()));
            case Command aggregation when PageAggregator.supports(aggregation) ->
                new Aggregation(
                    PageAggregator.of(
                        aggregation,
                        evaluator.zone(),
                        evaluator.memory(aggregation.name()),
                        pageSize));
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

  /** Whether the answer is full or a head from the {@code first}-th on (one after a stage) is. */
  private java.util.function.BooleanSupplier headsFrom(int first) {
    return () ->
        full || heads.subList(first, heads.size()).stream().anyMatch(h -> h.remaining == 0);
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
