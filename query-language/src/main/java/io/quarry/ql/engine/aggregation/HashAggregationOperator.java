package io.quarry.ql.engine.aggregation;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.ql.exec.TimeField;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code stats} over pages: each input page's positions are looked up in the group keys and added
 * to every function's state of their groups. In batch mode one instance per search thread is a
 * <em>partial</em> (fed the pages of the segment slices that thread scans, never finished) and
 * partials merge into the <em>final</em> one ({@link #merge}), whose {@link #finish} emits one row
 * per group sorted by the by-fields' values (numbers before text, as Splunk sorts), typed pages of
 * at most {@code pageSize} rows ({@link AggregationOutput}). Without by-fields and without input it
 * answers one row of empty results ({@code count} 0).
 *
 * <p>Memory: each new group's key and states, and the distinct values a function keeps, are counted
 * against the search's limit through {@code memory}.
 */
public final class HashAggregationOperator implements PageAggregator {
  final StatsCommand command;
  final MemoryTracker memory;
  final int pageSize;
  GroupKeys keys; // taken whole from the first partial merged into an empty final; new when cleared
  final GroupingFunction[] functions;
  private final String[] inputFields; // per function, null for count()
  private final long bytesPerGroup;
  private final Deque<Page> output = new ArrayDeque<>();
  private final boolean needsTime;
  private boolean finishing;
  private int[] pageIds = new int[0]; // per position of the page being added, its group
  private long[] pageTimes = new long[0]; // and its _time, when a function orders by it
  EntryPartial entries; // by one field: the groups of a shared dictionary's entries
  // pages grouped by entry, and those of them added in place, shared by the final and its partials
  private LongAdder pagesByEntry = new LongAdder();
  private LongAdder pagesInPlace = new LongAdder();
  // whether some function's answer depends on the order its values came in
  // (GroupingFunction.orderMatters): then a merge keeps the order read (mergeEntries)
  final boolean orderMatters;
  private long handedWhole; // groups unhashed when the answer was last built (groupsHandedWhole)

  /**
   * The fewest entries of a dictionary whose pages group by entry ({@link EntryPartial}): more than
   * a scan's page holds, so a per-page dictionary never does.
   */
  private static final int ENTRY_GROUPS_FROM = 1024;

  /** Whether every aggregation of {@code command} has a page implementation. */
  public static boolean supports(StatsCommand command) {
    return command.aggregations().stream().allMatch(GroupingFunction::supports);
  }

  public HashAggregationOperator(StatsCommand command, MemoryTracker memory, int pageSize) {
    this.command = requireNonNull(command, "command is null");
    this.memory = requireNonNull(memory, "memory is null");
    if (pageSize <= 0) {
      throw new IllegalArgumentException("pageSize must be positive: " + pageSize);
    }
    this.pageSize = pageSize;
    this.keys = new GroupKeys(command.groupBy().size());
    List<Aggregation> aggregations = command.aggregations();
    this.functions = GroupingFunction.all(aggregations);
    this.inputFields = new String[aggregations.size()];
    long bytes = 0;
    for (int i = 0; i < functions.length; i++) {
      inputFields[i] = aggregations.get(i).field().orElse(null);
      bytes += functions[i].bytesPerGroup();
    }
    this.bytesPerGroup = bytes;
    this.needsTime = aggregations.stream().anyMatch(GroupingFunction::needsTime);
    this.orderMatters = java.util.Arrays.stream(functions).anyMatch(GroupingFunction::orderMatters);
    this.entries =
        command.groupBy().size() == 1
            ? new EntryPartial(aggregations, memory.sibling(), bytesPerGroup)
            : null;
    grow();
  }

  /** The fields this operator reads from its input: the by-fields and the functions' fields. */
  public static List<String> inputFields(StatsCommand command) {
    List<String> fields = new ArrayList<>(command.groupBy());
    for (Aggregation aggregation : command.aggregations()) {
      aggregation.field().filter(f -> !fields.contains(f)).ifPresent(fields::add);
      if (GroupingFunction.needsTime(aggregation) && !fields.contains(TimeField.NAME)) {
        fields.add(TimeField.NAME);
      }
    }
    return fields;
  }

  /** A partial of the same command, its memory counted against the same search. */
  @Override
  public HashAggregationOperator newPartial() {
    HashAggregationOperator partial =
        new HashAggregationOperator(command, memory.sibling(), pageSize);
    partial.pagesByEntry = pagesByEntry;
    partial.pagesInPlace = pagesInPlace;
    return partial;
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
    Block[] keyBlocks = StatsInput.keyBlocks(page, command.groupBy());
    // Arrays made per page, not kept in fields: their exact type is known, so a store needs no
    // array-store check. Into a field's Block[] C2 checked each store against the block class its
    // profile had seen and, at another (a dictionary, an ordinal, a plain column), deoptimized:
    // sessions_range at 1M recompiled this method three times in 35 s after six warm-up runs
    // (JFR jdk.Deoptimization reason array_check), ~1.5 s of compiler time each.
    Block[] valueBlocks = new Block[functions.length];
    for (int f = 0; f < functions.length; f++) {
      valueBlocks[f] = inputFields[f] == null ? null : page.block(inputFields[f]);
    }
    Block times = needsTime ? page.block(TimeField.NAME) : null;
    int count = page.positionCount();
    if (pageIds.length < count) {
      pageIds = new int[count];
    }
    if (needsTime) {
      if (pageTimes.length < count) {
        pageTimes = new long[count];
      }
      for (int p = 0; p < count; p++) {
        pageTimes[p] = StatsInput.time(times, p);
      }
    }
    if (byEntry(keyBlocks, count)) {
      pagesByEntry.increment();
      BytesBlock key = (BytesBlock) keyBlocks[0];
      if (entries.addPage(key, count, pageIds, valueBlocks, needsTime ? pageTimes : null)) {
        pagesInPlace.increment();
      }
      return;
    }
    if (keys.groupOfEach(keyBlocks, count, pageIds)) {
      // one group per position: function by function over the page (a block each), each state
      // lookup independent of the last
      long grown = grow();
      for (int f = 0; f < functions.length; f++) {
        grown += functions[f].addPage(pageIds, count, valueBlocks[f], needsTime ? pageTimes : null);
      }
      memory.add(grown);
      return;
    }
    long grown = 0;
    for (int p = 0; p < page.positionCount(); p++) {
      int n = keys.groupsOf(keyBlocks, p);
      if (n == 0) {
        continue;
      }
      grown += grow();
      long time = StatsInput.time(times, p);
      int[] ids = keys.ids();
      for (int i = 0; i < n; i++) {
        int group = ids[i];
        for (int f = 0; f < functions.length; f++) {
          grown += functions[f].add(group, valueBlocks[f], p, time);
        }
      }
    }
    memory.add(grown);
  }

  /**
   * Whether the page's groups go to {@link #entries}: its one by-field refers to a dictionary
   * shared beyond the page, the one the entries' groups were made for or one taken now (those of
   * another handed over first). Otherwise the entries' groups are handed over, so the page's values
   * follow theirs in every group (a {@code list} keeps its order).
   */
  private boolean byEntry(Block[] keyBlocks, int count) {
    BytesBlock dictionary =
        entries == null ? null : EntryPartial.sharedDictionary(keyBlocks, count, ENTRY_GROUPS_FROM);
    if (dictionary != null && dictionary == entries.dictionary()) {
      return true;
    }
    flushEntries();
    return dictionary != null && entries.take(dictionary);
  }

  /** Hands the groups {@link #entries} holds to the keys and functions here. */
  void flushEntries() {
    if (entries != null && entries.dictionary() != null) {
      memory.add(entries.flushInto(keys, functions, this::grow));
    }
  }

  @Override
  public long pagesByEntry() {
    return pagesByEntry.sum();
  }

  /**
   * The groups whose keys were never hashed ({@link GroupKeys#unhashed}) when the answer was last
   * built ({@link #finishOn} or {@link #snapshot}): entries of a dictionary handed over as keys
   * ({@link EntryPartial}) with no lookup after — not those a later partial's keys were looked up
   * among ({@link SharedMerge}: each one hashed then). 0 before either.
   */
  @Override
  public long groupsHandedWhole() {
    return handedWhole;
  }

  @Override
  public long pagesInPlace() {
    return pagesInPlace.sum();
  }

  /** The groups made from shared dictionaries' entries so far (each once per dictionary taken). */
  public long groupsByEntry() {
    return entries == null ? 0 : entries.flushed();
  }

  /**
   * Adds counts a source made in place of rows ({@link CountPages}): each position's by-field
   * values pick its groups (as {@link #addInput}'s do), and every function — each a plain {@code
   * count}, as {@link CountShortcut} requires — adds the position's count instead of one; or counts
   * and {@code _time} extremes by key ({@link TimeExtremeStates}).
   */
  @Override
  public void addIntermediateInput(Page counts) {
    if (finishing) {
      throw new IllegalStateException("input after finish");
    }
    flushEntries();
    if (TimeExtremeStates.holds(counts)) { // counts and _time extremes by key
      memory.add(
          TimeExtremeStates.add(
              counts,
              StatsInput.keyBlocks(counts, command.groupBy()),
              keys,
              functions,
              this::grow));
      return;
    }
    for (GroupingFunction function : functions) {
      if (!(function instanceof CountFunction count) || !count.countsRows()) {
        throw new IllegalStateException("counts added to stats that does not only count rows");
      }
    }
    memory.add(
        CountPages.addCounts(
            counts, StatsInput.keyBlocks(counts, command.groupBy()), keys, functions, this::grow));
  }

  /**
   * Grows the key hash once to hold {@code groups} groups in all, before states of up to that many
   * distinct keys are added ({@code KeyStateTables} hands a table of 200,000 session ids on into an
   * empty final aggregation: its hash grown once instead of doubling a dozen times through the
   * inserts). Memory is still charged as groups are added ({@link #grow}: per group, the key hash's
   * share in {@link BytesKeyHash#KEY_OVERHEAD_BYTES} at half load), so the charges are what they
   * were; the table is allocated before the inserts that charge it. The functions' states are paged
   * ({@code LongPages}: grown a page at a time, nothing copied) and grow as before.
   */
  public void reserveGroups(int groups) {
    keys.reserve(groups);
  }

  /** Makes room in the functions for groups the keys added; returns the bytes they take. */
  int grownTo;

  long grow() {
    int size = keys.size();
    if (size == grownTo) {
      return 0;
    }
    long bytes = 0;
    for (int id = grownTo; id < size; id++) {
      bytes += keys.keyBytes(id) + bytesPerGroup;
    }
    for (GroupingFunction function : functions) {
      function.grow(size);
    }
    grownTo = size;
    return bytes;
  }

  /**
   * Adds a partial's groups (the same command, fed other pages) and empties it; its memory is
   * released and what its groups add here counted again.
   */
  @Override
  public void merge(PageAggregator other) {
    mergeOn(other, null, 0, SharedTasks.NEVER);
  }

  /**
   * Merges as {@link #merge} does; a partial of {@link AggregationOutput#PARALLEL_GROUPS} groups or
   * more is merged with up to {@code helpers} threads of {@code parallel} ({@link SharedMerge}).
   */
  @Override
  public void mergeOn(
      PageAggregator other,
      java.util.concurrent.Executor parallel,
      int helpers,
      java.util.function.BooleanSupplier stop) {
    if (!(other instanceof HashAggregationOperator partial) || !partial.command.equals(command)) {
      throw new IllegalArgumentException("cannot merge stats of another command");
    }
    StatsMerge.mergeOn(this, partial, parallel, helpers, stop);
  }

  /** The number of groups. */
  public int groupCount() {
    flushEntries();
    return keys.size();
  }

  /** Group {@code id}'s key: each by-field's value as text (a timestamp's microseconds). */
  public List<String> key(int id) {
    flushEntries();
    List<String> key = new ArrayList<>(command.groupBy().size());
    for (int k = 0; k < command.groupBy().size(); k++) {
      key.add(keys.key(id, k));
    }
    return key;
  }

  /** Group {@code id}'s result of aggregation {@code f} ({@link GroupingFunction#result}). */
  public Object result(int id, int f) {
    flushEntries();
    return functions[f].result(id);
  }

  /**
   * A new operator of the same command, counted by {@code memory}, holding this one's groups moved
   * to new keys ({@code newKey}: null drops a group), groups that meet merged state by state — how
   * {@code timechart} coarsens its buckets and folds small series into OTHER. This one keeps its
   * groups.
   */
  public HashAggregationOperator regrouped(
      java.util.function.UnaryOperator<List<String>> newKey, MemoryTracker memory) {
    return StatsMerge.regrouped(this, newKey, memory);
  }

  /**
   * Forgets every group and releases the memory counted for them. The keys are dropped, not
   * emptied: emptying a 200,000-group hash zeroed its 16 MB table on the one thread that merges and
   * answers, though the partial or final it belonged to is mostly closed next.
   */
  void clear() {
    keys = new GroupKeys(command.groupBy().size());
    GroupingFunction[] empty = GroupingFunction.all(command.aggregations());
    System.arraycopy(empty, 0, functions, 0, functions.length);
    grownTo = 0;
    memory.release();
    grow();
  }

  @Override
  public void finish() {
    finishOn(null, 0, SharedTasks.NEVER);
  }

  /** Finishes with the answer's sort, results and pages shared ({@link AggregationOutput}). */
  @Override
  public void finishOn(
      java.util.concurrent.Executor parallel,
      int helpers,
      java.util.function.BooleanSupplier stop) {
    if (!finishing) {
      finishing = true;
      flushEntries();
      output.addAll(
          new AggregationOutput(command, keys, functions, pageSize, parallel, helpers, stop)
              .pages());
      handedWhole = keys.unhashed();
      clear();
    }
  }

  /**
   * The answer for the input so far as pages, keeping the state (a running search's preview, or
   * {@link #finish}'s output).
   */
  @Override
  public List<Page> snapshot() {
    flushEntries();
    List<Page> pages =
        new AggregationOutput(command, keys, functions, pageSize, null, 0, SharedTasks.NEVER)
            .pages();
    handedWhole = keys.unhashed();
    return pages;
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
    if (entries != null) {
      entries.release();
    }
    memory.release();
  }
}
