package io.quarry.ql.engine.aggregation;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.TopCommand;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.ql.exec.PageBuilder;
import io.quarry.ql.exec.Values;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code top} and {@code rare} over pages: counts each combination of the fields' values per
 * by-group — a position missing a field is not counted, a multivalue counts once per distinct value
 * (per combination, with several) — and the positions counted per by-group, in two {@link
 * GroupKeys}: one over the by-fields (the group's total, the percentages' base) and one over the
 * by-fields and the fields together (the combinations' counts). The answer, per by-group in
 * ascending order of its values, is its {@code limit} most (least) common combinations, ties by
 * value, with their count ({@code countfield}, {@code showcount}) and percentage of the group's
 * total ({@code percentfield}, {@code showperc}, six decimals). A {@code _time} value comes out as
 * a time.
 */
public final class TopAggregation implements PageAggregator {
  private final TopCommand command;
  private final MemoryTracker memory;
  private final int pageSize;
  private final int byWidth;
  private final GroupKeys groups; // the by-fields: totals
  private final GroupKeys combinations; // the by-fields, then the fields: counts
  private final Block[] byBlocks;
  private final Block[] allBlocks;
  private final Deque<Page> output = new ArrayDeque<>();
  private long[] totals = new long[16];
  private long[] counts = new long[16];
  private boolean finishing;

  public TopAggregation(TopCommand command, MemoryTracker memory, int pageSize) {
    this.command = requireNonNull(command, "command is null");
    this.memory = requireNonNull(memory, "memory is null");
    if (pageSize <= 0) {
      throw new IllegalArgumentException("pageSize must be positive: " + pageSize);
    }
    this.pageSize = pageSize;
    this.byWidth = command.by().size();
    this.groups = new GroupKeys(byWidth);
    this.combinations = new GroupKeys(byWidth + command.fields().size());
    this.byBlocks = new Block[byWidth];
    this.allBlocks = new Block[byWidth + command.fields().size()];
  }

  /** The fields {@code top} reads: its by-fields and its fields. */
  static List<String> inputFields(TopCommand command) {
    List<String> fields = new ArrayList<>(command.by());
    command.fields().stream().filter(f -> !fields.contains(f)).forEach(fields::add);
    return fields;
  }

  @Override
  public TopAggregation newPartial() {
    return new TopAggregation(command, memory.sibling(), pageSize);
  }

  @Override
  public boolean needsInput() {
    return !finishing;
  }

  @Override
  public void addInput(Page page) {
    if (finishing) {
      throw new IllegalStateException("input after finish");
    }
    for (int k = 0; k < allBlocks.length; k++) {
      String field = k < byWidth ? command.by().get(k) : command.fields().get(k - byWidth);
      int column = page.schema().indexOf(field);
      allBlocks[k] = column < 0 ? null : page.block(column);
      if (k < byWidth) {
        byBlocks[k] = allBlocks[k];
      }
    }
    for (int k = byWidth; k < allBlocks.length; k++) {
      if (allBlocks[k] == null) {
        return; // a field no position here has: nothing counted
      }
    }
    if (byWidth == 0 && countEach(page.positionCount())) {
      return;
    }
    long grown = 0;
    positions:
    for (int p = 0; p < page.positionCount(); p++) {
      for (int k = byWidth; k < allBlocks.length; k++) {
        if (allBlocks[k].getValueCount(p) == 0) {
          continue positions; // a row missing a field is not counted
        }
      }
      int n = groups.groupsOf(byBlocks, p);
      if (n == 0) {
        continue; // a by-field missing: no group
      }
      int[] ids = groups.ids();
      grown += growTotals();
      for (int i = 0; i < n; i++) {
        totals[ids[i]]++;
      }
      int m = combinations.groupsOf(allBlocks, p);
      int[] combos = combinations.ids();
      grown += growCounts();
      for (int i = 0; i < m; i++) {
        counts[combos[i]]++;
      }
    }
    memory.add(grown);
  }

  /**
   * Counts a page without by-fields whose fields are single-valued, the combination of each
   * position found page at a time ({@link GroupKeys#groupOfEach}: over dictionary blocks once per
   * combination of entries); false (nothing counted) when some field is multivalued.
   */
  private boolean countEach(int positions) {
    if (pageIds.length < positions) {
      pageIds = new int[Math.max(positions, pageIds.length * 2)];
    }
    if (!combinations.groupOfEach(allBlocks, positions, pageIds)) {
      return false;
    }
    long grown = growCounts();
    long counted = 0;
    for (int p = 0; p < positions; p++) {
      int combination = pageIds[p];
      if (combination >= 0) { // a row missing a field is not counted
        counts[combination]++;
        counted++;
      }
    }
    if (counted > 0) {
      grown += growTotals();
      totals[0] += counted;
    }
    memory.add(grown);
    return true;
  }

  private int[] pageIds = new int[8]; // countEach: each position's combination, -1 for none

  /**
   * Adds counts a source made in place of rows ({@link CountPages#values}): each position's {@link
   * CountPages#COUNT} goes to the combination of its values, its {@link CountPages#TOTAL} to its
   * by-group's total (the percentages' base).
   */
  @Override
  public void addIntermediateInput(Page page) {
    if (finishing) {
      throw new IllegalStateException("input after finish");
    }
    for (int k = 0; k < allBlocks.length; k++) {
      String field = k < byWidth ? command.by().get(k) : command.fields().get(k - byWidth);
      allBlocks[k] = page.block(field);
      if (k < byWidth) {
        byBlocks[k] = allBlocks[k];
      }
    }
    io.quarry.plugin.api.data.LongBlock counted = CountPages.counts(page);
    if (!(page.block(CountPages.TOTAL) instanceof io.quarry.plugin.api.data.LongBlock rows)) {
      throw new IllegalArgumentException("top's counts need their total: " + page.schema());
    }
    long grown = 0;
    for (int p = 0; p < page.positionCount(); p++) {
      int n = groups.groupsOf(byBlocks, p);
      int[] ids = groups.ids();
      grown += growTotals();
      long total = CountPages.count(rows, p);
      for (int i = 0; i < n; i++) {
        totals[ids[i]] += total;
      }
      int m = combinations.groupsOf(allBlocks, p);
      int[] combos = combinations.ids();
      grown += growCounts();
      long count = CountPages.count(counted, p);
      for (int i = 0; i < m; i++) {
        counts[combos[i]] += count;
      }
    }
    memory.add(grown);
  }

  private int totalsSize;
  private int countsSize;

  /** Makes room for new by-groups; the bytes they take. */
  private long growTotals() {
    int size = groups.size();
    if (size == totalsSize) {
      return 0;
    }
    if (totals.length < size) {
      totals = Arrays.copyOf(totals, Math.max(size, totals.length * 2));
    }
    long bytes = 0;
    for (int id = totalsSize; id < size; id++) {
      bytes += groups.keyBytes(id) + Long.BYTES;
    }
    totalsSize = size;
    return bytes;
  }

  /** Makes room for new combinations; the bytes they take. */
  private long growCounts() {
    int size = combinations.size();
    if (size == countsSize) {
      return 0;
    }
    if (counts.length < size) {
      counts = Arrays.copyOf(counts, Math.max(size, counts.length * 2));
    }
    long bytes = 0;
    for (int id = countsSize; id < size; id++) {
      bytes += combinations.keyBytes(id) + Long.BYTES;
    }
    countsSize = size;
    return bytes;
  }

  @Override
  public void merge(PageAggregator other) {
    if (!(other instanceof TopAggregation partial) || !partial.command.equals(command)) {
      throw new IllegalArgumentException("cannot merge another top");
    }
    long grown = 0;
    for (int from = 0; from < partial.totalsSize; from++) {
      int id = groups.idOf(partial.groups, from);
      grown += growTotals();
      totals[id] += partial.totals[from];
    }
    for (int from = 0; from < partial.countsSize; from++) {
      int id = combinations.idOf(partial.combinations, from);
      grown += growCounts();
      counts[id] += partial.counts[from];
    }
    memory.add(grown);
    partial.clear();
  }

  private void clear() {
    groups.clear();
    combinations.clear();
    totalsSize = 0;
    countsSize = 0;
    Arrays.fill(totals, 0);
    Arrays.fill(counts, 0);
    memory.release();
  }

  @Override
  public void finish() {
    if (!finishing) {
      finishing = true;
      output.addAll(snapshot());
      clear();
    }
  }

  /**
   * The answer so far: per by-group (ascending by its values) its kept combinations, as pages of at
   * most {@code pageSize} positions, each column typed as the page builder types its values ({@link
   * PageBuilder#toPage(List, List, int)}).
   */
  @Override
  public List<Page> snapshot() {
    Comparator<List<String>> byValues = TopAggregation::compareKeys;
    Map<List<String>, Long> groupTotals = new HashMap<>();
    for (int id = 0; id < totalsSize; id++) {
      groupTotals.put(key(groups, id, 0, byWidth), totals[id]);
    }
    Map<List<String>, List<Integer>> byGroup = new HashMap<>();
    for (int id = 0; id < countsSize; id++) {
      byGroup.computeIfAbsent(key(combinations, id, 0, byWidth), k -> new ArrayList<>()).add(id);
    }
    List<List<String>> byKeys = new ArrayList<>(byGroup.keySet());
    byKeys.sort(byValues);
    int width = byWidth + command.fields().size();
    List<Page> pages = new ArrayList<>();
    TopAnswer answer = new TopAnswer(command);
    for (List<String> byKey : byKeys) {
      List<Integer> ids = byGroup.get(byKey);
      List<List<String>> values = new ArrayList<>(ids.size());
      for (int id : ids) {
        values.add(key(combinations, id, byWidth, width));
      }
      Integer[] order = new Integer[ids.size()];
      for (int i = 0; i < order.length; i++) {
        order[i] = i;
      }
      Comparator<Integer> byCount = Comparator.comparingLong(i -> counts[ids.get(i)]);
      Arrays.sort(
          order,
          (command.rare() ? byCount : byCount.reversed())
              .thenComparing(i -> values.get(i), byValues));
      long total = groupTotals.get(byKey);
      long emitted = 0;
      for (int i : order) {
        if (emitted++ >= command.limit()) {
          break;
        }
        answer.add(byKey, values.get(i), counts[ids.get(i)], total);
        if (answer.positions() == pageSize) {
          pages.add(answer.page());
          answer = new TopAnswer(command);
        }
      }
    }
    if (answer.positions() > 0) {
      pages.add(answer.page());
    }
    return pages;
  }

  /** Fields {@code [from, to)} of group {@code id}'s key as texts. */
  private static List<String> key(GroupKeys keys, int id, int from, int to) {
    List<String> key = new ArrayList<>(to - from);
    for (int k = from; k < to; k++) {
      key.add(keys.key(id, k));
    }
    return key;
  }

  private static int compareKeys(List<String> a, List<String> b) {
    for (int i = 0; i < a.size(); i++) {
      int c = Values.NATURAL_ORDER.compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  @Override
  public boolean isFinished() {
    return finishing && output.isEmpty();
  }

  @Override
  public Page getOutput() {
    return output.poll();
  }

  @Override
  public void close() {
    output.clear();
    memory.release();
  }
}
