package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.EventStatsCommand;
import io.quarry.ql.engine.aggregation.RunningGroups;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code eventstats} on pages: keeps its input pages, adding each position to its groups' states
 * ({@link RunningGroups}: the page aggregation's keys and functions) as they come, and once the
 * input ends emits every kept page, in order, with the aggregations of each position's first group
 * set on it ({@link AssignedColumns}); a position in no group (a by-field without a value) is
 * emitted as it came. Past {@link #MAX_ROWS} positions the rest is dropped and every emitted
 * position says so in {@code eventstats_truncated}. The pages held, their positions' groups and the
 * states are counted on the search's memory and released when emitted.
 */
final class EventStatsOperator extends QueuedPageOperator {
  /** Rows held at most (the default result cap of a search). */
  static final int MAX_ROWS = 1_000_000;

  private static final String TRUNCATED = "eventstats_truncated";

  private final RunningGroups groups;
  private final AssignedColumns columns;
  private final MemoryTracker memory;
  private final List<Page> pages = new ArrayList<>();
  private final List<int[]> firstGroups = new ArrayList<>(); // per kept page, per position; -1 none
  private long held;
  private boolean truncated;
  private Object[][] byGroup; // each group's results, once; made when the input is over
  private int next; // the next held page to hand on

  EventStatsOperator(EventStatsCommand command, MemoryTracker memory) {
    this.groups = new RunningGroups(command.stats(), true);
    this.columns = new AssignedColumns(command.stats());
    this.memory = requireNonNull(memory, "memory is null");
  }

  /** Whether the page engine runs {@code command}: every aggregation has a page function. */
  static boolean supports(EventStatsCommand command) {
    return RunningGroups.supports(command.stats());
  }

  @Override
  protected void process(Page page) {
    if (truncated) {
      return;
    }
    int positions = page.positionCount();
    if (held + positions > MAX_ROWS) {
      truncated = true;
      positions = (int) (MAX_ROWS - held);
      page = PageReduce.firstPositions(page, positions);
      if (positions == 0) {
        return;
      }
    }
    groups.bind(page);
    int[] first = new int[positions];
    for (int p = 0; p < positions; p++) {
      int n = groups.groupsOf(p);
      int[] ids = groups.ids();
      first[p] = n == 0 ? -1 : ids[0];
      for (int i = 0; i < n; i++) {
        groups.add(ids[i], p);
      }
    }
    pages.add(page);
    firstGroups.add(first);
    held += positions;
    long bytes = groups.takeGrownBytes() + (long) Integer.BYTES * positions;
    for (Block block : page.blocks()) {
      bytes += block.ramBytesUsed();
    }
    memory.add(bytes);
  }

  @Override
  protected void onFinish() {
    byGroup = new Object[groups.groupCount()][];
  }

  /** The next held page with its groups' results laid over it. */
  @Override
  protected Page produce() {
    if (next >= pages.size()) {
      close();
      return null;
    }
    int i = next++;
    Page page = pages.get(i);
    int[] first = firstGroups.get(i);
    pages.set(i, null); // handed on: no longer held here
    Object[][] results = new Object[page.positionCount()][];
    boolean any = false;
    for (int p = 0; p < first.length; p++) {
      if (first[p] >= 0) {
        int group = first[p];
        if (byGroup[group] == null) {
          byGroup[group] = resultsOf(group);
        }
        results[p] = byGroup[group];
        any = true;
      }
    }
    Page emitted = any ? columns.apply(page, results) : page;
    if (truncated) {
      emitted = emitted.withColumn(TRUNCATED, truncationNote(page.positionCount()));
    }
    return emitted;
  }

  private Object[] resultsOf(int group) {
    Object[] results = new Object[groups.functionCount()];
    for (int f = 0; f < results.length; f++) {
      results[f] = groups.result(group, f);
    }
    return results;
  }

  private static Block truncationNote(int positions) {
    List<List<Object>> cells = new ArrayList<>(positions);
    List<Object> note = List.of("only the first " + MAX_ROWS + " rows were read");
    for (int p = 0; p < positions; p++) {
      cells.add(note);
    }
    return PageBuilder.column(TRUNCATED, cells);
  }

  @Override
  public void close() {
    pages.clear();
    firstGroups.clear();
    memory.release();
  }
}
