package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.StreamStatsCommand;
import io.quarry.ql.engine.BlockCopies;
import io.quarry.ql.engine.aggregation.RunningGroups;
import io.quarry.ql.eval.ExpressionCompiler;
import io.quarry.ql.eval.ExpressionEvaluator;
import io.quarry.ql.eval.Frame;
import io.quarry.ql.eval.Selection;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code streamstats} on pages, position by position in arrival order, each page emitted as it
 * comes with every position's aggregations set on it ({@link AssignedColumns}). A position's group
 * is its first one ({@link RunningGroups}: the page aggregation's keys and functions); a position
 * in none passes unchanged. Without a window each group's states run on ({@code current=false}:
 * read before the position is added); with {@code window=N} or {@code time_window} the window holds
 * (page, position) entries — of the stream when {@code global}, else per group — and a position's
 * results are those of a group of the moment fed the window's entries of its group, recomputed at
 * each position. {@code reset_on_change}, {@code reset_before} and {@code reset_after} (conditions
 * compiled once; {@code reset_before} evaluated over the whole input page, {@code reset_after} at
 * each position with its just-computed results set on it, as Splunk's reads them) empty every
 * state. The window entries and the groups' states are counted on the search's memory.
 */
final class StreamStatsOperator extends PageTransformOperator {
  private final StreamStatsCommand command;
  private final RunningGroups running;
  private final RunningGroups moment; // a window's group of the moment (group 0)
  private final AssignedColumns columns;
  private final MemoryTracker memory;
  private final ExpressionEvaluator resetBefore;
  private final ExpressionEvaluator resetAfter;
  private final java.util.Set<String> afterReads; // the page fields reset_after's condition reads
  private final ArrayDeque<Entry> globalWindow = new ArrayDeque<>();
  private final Map<Integer, ArrayDeque<Entry>> groupWindows = new HashMap<>();
  private int previousGroup = -1;
  private int[] selected = new int[0];

  /** A position held in a window: its page, its group and its {@code _time}. */
  private record Entry(Page page, int position, int group, long time) {}

  StreamStatsOperator(StreamStatsCommand command, Evaluator evaluator) {
    this.command = requireNonNull(command, "command is null");
    this.running = new RunningGroups(command.stats(), true);
    this.moment = new RunningGroups(command.stats(), false);
    this.columns = new AssignedColumns(command.stats());
    this.memory = evaluator.memory(command.name());
    ExpressionCompiler compiler = new ExpressionCompiler(evaluator);
    this.resetBefore = command.resetBefore().map(compiler::compile).orElse(null);
    this.resetAfter = command.resetAfter().map(compiler::compile).orElse(null);
    this.afterReads =
        command.resetAfter().map(ExpressionCompiler::pageFields).orElse(java.util.Set.of());
  }

  /** Whether the page engine runs {@code command}: every aggregation has a page function. */
  static boolean supports(StreamStatsCommand command) {
    return RunningGroups.supports(command.stats());
  }

  @Override
  protected Page process(Page page) {
    int positions = page.positionCount();
    boolean[] before = holds(resetBefore, page);
    Block times = command.timeWindowMicros() > 0 ? page.block(TimeField.NAME) : null;
    Object[][] results = new Object[positions][];
    boolean any = false;
    running.bind(page);
    Page afterInput = resetAfter == null ? null : readBy(page, afterReads);
    for (int p = 0; p < positions; p++) {
      if (running.groupsOf(p) == 0) {
        continue; // no group: passes unchanged
      }
      int group = running.ids()[0];
      if (command.resetOnChange() && previousGroup >= 0 && previousGroup != group) {
        reset();
      }
      previousGroup = group;
      if (before != null && before[p]) {
        reset();
      }
      results[p] =
          command.windowed() ? windowed(page, p, group, time(times, p)) : runningOn(group, p);
      any = true;
      if (resetAfter != null && holdsAfter(afterInput, p, results[p])) {
        reset();
      }
    }
    memory.add(running.takeGrownBytes() + moment.takeGrownBytes());
    return any ? columns.apply(page, results) : page;
  }

  /** A position's results without a window: its group's running states, itself in or not yet. */
  private Object[] runningOn(int group, int position) {
    if (command.current()) {
      running.add(group, position);
      return results(running, group);
    }
    Object[] results = results(running, group);
    running.add(group, position);
    return results;
  }

  /** A position's results over its window: its group's entries fed to a group of the moment. */
  private Object[] windowed(Page page, int position, int group, long time) {
    ArrayDeque<Entry> window =
        command.global()
            ? globalWindow
            : groupWindows.computeIfAbsent(group, g -> new ArrayDeque<>());
    if (command.timeWindowMicros() > 0) {
      // entries further than the window from this position's time leave (time-ordered either way)
      int before = window.size();
      window.removeIf(
          e ->
              time == Long.MIN_VALUE
                  || e.time() == Long.MIN_VALUE
                  || Math.abs(time - e.time()) >= command.timeWindowMicros());
      memory.add(-MemoryTracker.ROW_BYTES * (before - window.size()));
    }
    Entry entry = new Entry(page, position, group, time);
    if (command.current()) {
      push(window, entry);
    }
    moment.reset();
    for (Entry earlier : window) {
      if (earlier.group() == group) {
        moment.bind(earlier.page());
        moment.add(0, earlier.position());
      }
    }
    moment.takeGrownBytes(); // dropped after this position
    Object[] results = results(moment, 0);
    if (!command.current()) {
      push(window, entry);
    }
    return results;
  }

  /**
   * Holds an entry in a window (counted as a row held); the oldest leaves past {@code window=N}.
   */
  private void push(ArrayDeque<Entry> window, Entry entry) {
    window.addLast(entry);
    memory.add(MemoryTracker.ROW_BYTES);
    if (command.window() > 0 && window.size() > command.window()) {
      window.removeFirst();
      memory.add(-MemoryTracker.ROW_BYTES);
    }
  }

  private static Object[] results(RunningGroups groups, int group) {
    Object[] results = new Object[groups.functionCount()];
    for (int f = 0; f < results.length; f++) {
      results[f] = groups.result(group, f);
    }
    return results;
  }

  /** Every aggregation starts afresh. */
  private void reset() {
    running.reset();
    globalWindow.clear();
    groupWindows.clear();
    memory.release();
  }

  /** Per position, whether a reset condition holds (null without one). */
  private boolean[] holds(ExpressionEvaluator condition, Page page) {
    if (condition == null) {
      return null;
    }
    int positions = page.positionCount();
    if (selected.length < positions) {
      selected = new int[positions];
    }
    int count = Selection.trues(condition.eval(new Frame(page)), selected);
    boolean[] holds = new boolean[positions];
    for (int i = 0; i < count; i++) {
      holds[selected[i]] = true;
    }
    return holds;
  }

  /**
   * Whether {@code reset_after} holds at a position, its results set on it: Splunk's condition
   * reads the fields {@code streamstats} returns for the event ({@code reset_after="(c=2)"} with
   * {@code count AS c}), so it is evaluated position by position, after them — over a one-row page
   * of the columns it reads ({@code input}: {@link #readBy}) and the results, nothing else copied.
   */
  private boolean holdsAfter(Page input, int position, Object[] results) {
    Page one =
        columns.apply(BlockCopies.filter(input, new int[] {position}, 1), new Object[][] {results});
    return Selection.trues(resetAfter.eval(new Frame(one)), new int[1]) == 1;
  }

  /**
   * {@code page} with only the columns named in {@code fields} (its blocks, nothing copied); the
   * whole page where {@code fields} holds {@code *} (a term asking a row's every field).
   */
  private static Page readBy(Page page, java.util.Set<String> fields) {
    if (fields.contains("*")) {
      return page;
    }
    java.util.List<io.quarry.plugin.api.data.Schema.Column> kept = new java.util.ArrayList<>();
    java.util.List<Block> blocks = new java.util.ArrayList<>();
    for (int c = 0; c < page.schema().size(); c++) {
      if (fields.contains(page.schema().column(c).name())) {
        kept.add(page.schema().column(c));
        blocks.add(page.block(c));
      }
    }
    return new Page(new io.quarry.plugin.api.data.Schema(kept), blocks, page.positionCount());
  }

  /** A position's {@code _time} in epoch microseconds, Long.MIN_VALUE without one. */
  private static long time(Block times, int position) {
    if (times instanceof LongBlock longs && longs.getValueCount(position) > 0) {
      return longs.getLongValue(longs.getFirstValueIndex(position));
    }
    return Long.MIN_VALUE;
  }

  @Override
  public void close() {
    globalWindow.clear();
    groupWindows.clear();
    memory.release();
  }
}
