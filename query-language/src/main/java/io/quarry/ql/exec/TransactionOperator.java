package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.TransactionCommand;
import io.quarry.ql.eval.ExpressionCompiler;
import io.quarry.ql.eval.ExpressionEvaluator;
import io.quarry.ql.eval.Frame;
import io.quarry.ql.eval.SearchFilter;
import io.quarry.ql.eval.Selection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code transaction} on pages, a stage of {@link PageReduce} over the ordered stream (newest event
 * first in time-ordered mode): each position's first value of every field read from its block as
 * text, its {@code _time} from the timestamp block, and whether it matches {@code
 * startswith}/{@code endswith} — decided for the whole page at once ({@link SearchFilter} for a
 * search, its bare words in the position's {@code _raw}; a compiled {@link ExpressionEvaluator} for
 * {@code eval(…)}) — into {@link TransactionGroups}, the grouping. The pages whose positions are
 * part of a result are kept (counted on the search's memory); once the input ends the results,
 * newest first, are made from the kept positions' values ({@link TransactionGroups#combined}) into
 * pages typed over the whole answer ({@link ResultPages}).
 *
 * <p>An event's fields are the page's columns holding a value at its position: the page source
 * loads those the commands after it read ({@link #inputFields}), so a result carries what the
 * answer needs, not every field an event has.
 */
final class TransactionOperator extends QueuedPageOperator {
  private static final long EVENT_BYTES = 48; // a kept (page, position) reference in a transaction

  private final TransactionCommand command;
  private final TransactionGroups<Long> groups;
  private final PageChain.FilterOperator.Selector starts; // null: no startswith
  private final PageChain.FilterOperator.Selector ends; // null: no endswith
  private final MemoryTracker memory;
  private final int pageSize;
  private final List<Page> pages = new ArrayList<>();
  private int[] selected = new int[0];
  private boolean[] isStart = new boolean[0];
  private boolean[] isEnd = new boolean[0];

  TransactionOperator(TransactionCommand command, Evaluator evaluator, int pageSize) {
    this.command = requireNonNull(command, "command is null");
    this.memory = evaluator.memory(command.name());
    this.groups = new TransactionGroups<>(command, memory);
    this.starts = command.startsWith().map(f -> selector(f, evaluator)).orElse(null);
    this.ends = command.endsWith().map(f -> selector(f, evaluator)).orElse(null);
    this.pageSize = pageSize;
  }

  /**
   * The fields {@code command}'s input must carry for its output to carry {@code needed}: a result
   * combines its events' values of every field, so what is needed after it is needed before it (its
   * own {@code duration}, {@code eventcount} … too: an orphan passes its own on), and its fields,
   * its filters' fields and {@code _time} are read.
   */
  static void inputFields(TransactionCommand command, Set<String> needed) {
    needed.addAll(command.fields());
    needed.add(TransactionGroups.TIME);
    for (TransactionCommand.Filter filter :
        List.of(command.startsWith(), command.endsWith()).stream()
            .flatMap(java.util.Optional::stream)
            .toList()) {
      if (filter.search() != null) {
        needed.addAll(SearchMatch.fields(filter.search())); // _raw for a bare word
      } else {
        InputFields.ofExpression(filter.condition(), needed);
      }
    }
  }

  private static PageChain.FilterOperator.Selector selector(
      TransactionCommand.Filter filter, Evaluator evaluator) {
    if (filter.search() != null) {
      return SearchFilter.compile(filter.search(), evaluator.rawTermMatcher())::select;
    }
    ExpressionEvaluator condition = new ExpressionCompiler(evaluator).compile(filter.condition());
    return (page, positions) -> Selection.trues(condition.eval(new Frame(page)), positions);
  }

  @Override
  protected void process(Page page) {
    int positions = page.positionCount();
    if (selected.length < positions) {
      selected = new int[positions];
      isStart = new boolean[positions];
      isEnd = new boolean[positions];
    }
    matches(starts, page, isStart);
    matches(ends, page, isEnd);
    Block[] keyBlocks = new Block[command.fields().size()];
    for (int f = 0; f < keyBlocks.length; f++) {
      keyBlocks[f] = page.block(command.fields().get(f));
    }
    Block times = page.block(TransactionGroups.TIME);
    long pageIndex = pages.size();
    long events = 0;
    for (int p = 0; p < positions; p++) {
      Map<String, String> keys = new LinkedHashMap<>();
      for (int f = 0; f < keyBlocks.length; f++) {
        Block block = keyBlocks[f];
        if (block != null && !block.isNull(p)) {
          keys.put(command.fields().get(f), Values.toText(block.getObject(p)));
        }
      }
      long time =
          times instanceof LongBlock longs && !longs.isNull(p)
              ? longs.getLongValue(longs.getFirstValueIndex(p))
              : 0;
      Long event = pageIndex << 32 | p;
      if (groups.orphan(keys)) {
        if (command.keepOrphans()) {
          groups.keepOrphan(event, time);
          events++;
        }
        continue;
      }
      groups.add(event, keys, time, isStart[p], isEnd[p]);
      events++;
    }
    if (events == 0) {
      return; // no position of it is part of the answer
    }
    pages.add(page);
    long bytes = events * EVENT_BYTES;
    for (Block block : page.blocks()) {
      bytes += block.ramBytesUsed();
    }
    memory.add(bytes);
  }

  /** Which positions of a page a filter keeps ({@code into[p]}), all false without one. */
  private void matches(PageChain.FilterOperator.Selector filter, Page page, boolean[] into) {
    int positions = page.positionCount();
    java.util.Arrays.fill(into, 0, positions, false);
    if (filter == null) {
      return;
    }
    int count = filter.select(page, selected);
    for (int i = 0; i < count; i++) {
      into[selected[i]] = true;
    }
  }

  /** A kept position's fields: the columns holding a value there, in the page's order. */
  private final TransactionGroups.Fields<Long> fields =
      new TransactionGroups.Fields<>() {
        @Override
        public Iterable<String> names(Long event) {
          Page page = pages.get((int) (event >>> 32));
          int position = (int) (long) event;
          List<String> names = new ArrayList<>(page.schema().size());
          for (int c = 0; c < page.schema().size(); c++) {
            if (!page.block(c).isNull(position)) {
              names.add(page.schema().column(c).name());
            }
          }
          return names;
        }

        @Override
        public List<Object> values(Long event, String field) {
          Block block = pages.get((int) (event >>> 32)).block(field);
          return block == null ? List.of() : Values.valuesOf(block, (int) (long) event);
        }
      };

  @Override
  protected void onFinish() {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (TransactionGroups.Result<Long> result : groups.finish()) {
      rows.add(TransactionGroups.combined(command, result, fields));
    }
    close();
    ResultPages.emit(rows, pageSize, this::emit);
  }

  @Override
  public void close() {
    pages.clear();
    groups.finish(); // drops what is still open
    memory.release();
  }
}
