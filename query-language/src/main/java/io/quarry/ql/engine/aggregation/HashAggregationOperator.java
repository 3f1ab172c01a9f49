package io.quarry.ql.engine.aggregation;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.ql.exec.PageCollector;
import io.quarry.ql.exec.TimeField;
import io.quarry.ql.exec.Values;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * {@code stats} over pages: each input page's positions are looked up in the group keys and added
 * to every function's state of their groups. In batch mode one instance per search thread is a
 * <em>partial</em> (fed the pages of the segment slices that thread scans, never finished) and
 * partials merge into the <em>final</em> one ({@link #merge}), whose {@link #finish} emits one row
 * per group sorted by the by-fields' values (numbers before text, as Splunk sorts), typed pages of
 * at most {@code pageSize} rows. Without by-fields and without input it answers one row of empty
 * results ({@code count} 0).
 *
 * <p>Memory: each new group's key and states, and the distinct values a function keeps, are counted
 * against the search's limit through {@code memory}.
 */
public final class HashAggregationOperator implements PageAggregator {
  private final StatsCommand command;
  private final MemoryTracker memory;
  private final int pageSize;
  private final GroupKeys keys;
  private final GroupingFunction[] functions;
  private final String[] inputFields; // per function, null for count()
  private final long bytesPerGroup;
  private final Deque<Page> output = new ArrayDeque<>();
  private final Block[] keyBlocks;
  private final Block[] valueBlocks;
  private final boolean needsTime;
  private boolean finishing;
  private int[] pageIds = new int[0]; // per position of the page being added, its group
  private long[] pageTimes = new long[0]; // and its _time, when a function orders by it
  private boolean[] numeric; // per function, while emitting: every result a number (or null)
  private boolean[] doubles; // per function, while emitting: some result a double

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
    this.functions = new GroupingFunction[aggregations.size()];
    this.inputFields = new String[aggregations.size()];
    long bytes = 0;
    for (int i = 0; i < functions.length; i++) {
      functions[i] = GroupingFunction.of(aggregations.get(i));
      inputFields[i] = aggregations.get(i).field().orElse(null);
      bytes += functions[i].bytesPerGroup();
    }
    this.bytesPerGroup = bytes;
    this.needsTime = aggregations.stream().anyMatch(GroupingFunction::needsTime);
    this.keyBlocks = new Block[command.groupBy().size()];
    this.valueBlocks = new Block[functions.length];
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
    return new HashAggregationOperator(command, memory.sibling(), pageSize);
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
    for (int k = 0; k < keyBlocks.length; k++) {
      keyBlocks[k] = page.block(command.groupBy().get(k));
    }
    for (int f = 0; f < functions.length; f++) {
      valueBlocks[f] = inputFields[f] == null ? null : page.block(inputFields[f]);
    }
    Block times = needsTime ? page.block(TimeField.NAME) : null;
    int count = page.positionCount();
    if (pageIds.length < count) {
      pageIds = new int[count];
    }
    if (keys.groupOfEach(keyBlocks, count, pageIds)) {
      // one group per position: function by function over the page, each state lookup
      // independent of the last
      long grown = grow();
      if (needsTime) {
        if (pageTimes.length < count) {
          pageTimes = new long[count];
        }
        for (int p = 0; p < count; p++) {
          pageTimes[p] = time(times, p);
        }
      }
      for (int f = 0; f < functions.length; f++) {
        GroupingFunction function = functions[f];
        Block values = valueBlocks[f];
        for (int p = 0; p < count; p++) {
          int group = pageIds[p];
          if (group >= 0) {
            grown += function.add(group, values, p, needsTime ? pageTimes[p] : Long.MIN_VALUE);
          }
        }
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
      long time = time(times, p);
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
   * A position's {@code _time} in epoch microseconds, Long.MIN_VALUE when it has none (or {@code
   * _time} is not a number column here), as the row engine reads it.
   */
  private static long time(Block times, int position) {
    if (times instanceof io.quarry.plugin.api.data.LongBlock longs
        && longs.getValueCount(position) > 0) {
      return longs.getLongValue(longs.getFirstValueIndex(position));
    }
    return Long.MIN_VALUE;
  }

  /** Makes room in the functions for groups the keys added; returns the bytes they take. */
  private int grownTo;

  private long grow() {
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
    if (!(other instanceof HashAggregationOperator partial) || !partial.command.equals(command)) {
      throw new IllegalArgumentException("cannot merge stats of another command");
    }
    long grown = 0;
    for (int from = 0; from < partial.keys.size(); from++) {
      int id = keys.idOf(partial.keys, from);
      grown += grow();
      for (int f = 0; f < functions.length; f++) {
        grown += functions[f].merge(id, partial.functions[f], from);
      }
    }
    memory.add(grown);
    partial.clear();
  }

  /** The number of groups. */
  public int groupCount() {
    return keys.size();
  }

  /** Group {@code id}'s key: each by-field's value as text (a timestamp's microseconds). */
  public List<String> key(int id) {
    List<String> key = new ArrayList<>(command.groupBy().size());
    for (int k = 0; k < command.groupBy().size(); k++) {
      key.add(keys.key(id, k));
    }
    return key;
  }

  /** Group {@code id}'s result of aggregation {@code f}, as the row engine answers it. */
  public Object result(int id, int f) {
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
    HashAggregationOperator into = new HashAggregationOperator(command, memory, pageSize);
    long grown = 0;
    for (int from = 0; from < keys.size(); from++) {
      List<String> key = newKey.apply(key(from));
      if (key == null) {
        continue;
      }
      int id = into.keys.idOf(key);
      grown += into.grow();
      for (int f = 0; f < functions.length; f++) {
        grown += into.functions[f].merge(id, functions[f], from);
      }
    }
    memory.add(grown);
    return into;
  }

  /** Forgets every group and releases the memory counted for them. */
  private void clear() {
    keys.clear();
    for (int f = 0; f < functions.length; f++) {
      functions[f] = GroupingFunction.of(command.aggregations().get(f));
    }
    grownTo = 0;
    memory.release();
    grow();
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
   * The answer for the input so far as pages, keeping the state (a running search's preview, or
   * {@link #finish}'s output).
   */
  @Override
  public List<Page> snapshot() {
    int groups = keys.size();
    Integer[] sorted = new Integer[groups];
    Values.Sortable[][] sortKeys = new Values.Sortable[groups][];
    int width = command.groupBy().size();
    for (int id = 0; id < groups; id++) {
      sorted[id] = id;
      sortKeys[id] = new Values.Sortable[width];
      for (int k = 0; k < width; k++) {
        sortKeys[id][k] = Values.Sortable.of(keys.key(id, k));
      }
    }
    Arrays.sort(
        sorted,
        (a, b) -> {
          for (int k = 0; k < width; k++) {
            int c = sortKeys[a][k].compareTo(sortKeys[b][k]);
            if (c != 0) {
              return c;
            }
          }
          return 0;
        });
    int[] order = new int[groups];
    for (int i = 0; i < groups; i++) {
      order[i] = sorted[i];
    }
    // every result first: a column whose numbers are whole in some groups and not in others is
    // doubles throughout, as the row engine answers
    Object[][] results = new Object[groups][functions.length];
    boolean[] anyLong = new boolean[functions.length];
    boolean[] anyDouble = new boolean[functions.length];
    numeric = new boolean[functions.length];
    java.util.Arrays.fill(numeric, true);
    for (int id = 0; id < groups; id++) {
      for (int f = 0; f < functions.length; f++) {
        Object result = functions[f].result(id);
        results[id][f] = result;
        anyLong[f] |= result instanceof Long;
        anyDouble[f] |= result instanceof Double;
        numeric[f] &= result == null || result instanceof Long || result instanceof Double;
      }
    }
    doubles = anyDouble;
    List<String> names = new ArrayList<>(command.groupBy());
    for (Aggregation aggregation : command.aggregations()) {
      names.add(aggregation.outputName());
    }
    List<Page> pages = new ArrayList<>();
    for (int from = 0; from < groups; from += pageSize) {
      int to = Math.min(groups, from + pageSize);
      Block[] blocks = new Block[names.size()];
      List<String> generic = new ArrayList<>();
      List<List<List<Object>>> cells = new ArrayList<>();
      List<Integer> genericAt = new ArrayList<>();
      for (int c = 0; c < names.size(); c++) {
        Block block =
            c < width
                ? keyBlock(c, order, from, to)
                : resultBlock(c - width, names.get(c), order, from, to, results);
        if (block != null) {
          blocks[c] = block;
          continue;
        }
        List<List<Object>> column = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
          int id = order[i];
          if (c < width) {
            column.add(List.of(groupValue(names.get(c), keys.key(id, c))));
          } else {
            int f = c - width;
            Object result = results[id][f];
            if (anyLong[f] && anyDouble[f] && result instanceof Long whole) {
              result = (double) whole;
            }
            column.add(cell(names.get(c), result));
          }
        }
        generic.add(names.get(c));
        cells.add(column);
        genericAt.add(c);
      }
      if (!generic.isEmpty()) { // typed as the row boundary types them
        Page typed = PageCollector.toPage(generic, cells, to - from);
        for (int i = 0; i < generic.size(); i++) {
          blocks[genericAt.get(i)] = typed.block(i);
        }
      }
      List<Schema.Column> schema = new ArrayList<>(names.size());
      for (int c = 0; c < names.size(); c++) {
        schema.add(new Schema.Column(names.get(c), blocks[c].dataType()));
      }
      pages.add(new Page(new Schema(schema), List.of(blocks), to - from));
    }
    return pages;
  }

  /**
   * By-field {@code k}'s values for groups {@code order[from, to)} as a string block straight from
   * the keys (no {@code String}); null for {@code _time}, whose groups are times again.
   */
  private Block keyBlock(int k, int[] order, int from, int to) {
    if (TimeField.is(command.groupBy().get(k))) {
      return null;
    }
    BytesBlock.Builder builder = BytesBlock.builder(to - from);
    for (int i = from; i < to; i++) {
      keys.appendKey(order[i], k, builder);
    }
    return builder.build();
  }

  /**
   * Function {@code f}'s results for groups {@code order[from, to)} as a long or double block when
   * they are numbers (whole numbers a long block unless the column has fractions anywhere, as the
   * row engine types it); null for anything else (text, multivalues, all null, {@code _time}).
   */
  private Block resultBlock(int f, String name, int[] order, int from, int to, Object[][] results) {
    if (TimeField.is(name) || !numeric[f]) {
      return null;
    }
    boolean any = false;
    for (int i = from; i < to && !any; i++) {
      any = results[order[i]][f] != null;
    }
    if (!any) {
      return null;
    }
    if (doubles[f]) {
      DoubleBlock.Builder builder = DoubleBlock.builder(to - from);
      for (int i = from; i < to; i++) {
        Object result = results[order[i]][f];
        if (result == null) {
          builder.appendNull();
        } else {
          builder.append(((Number) result).doubleValue());
        }
      }
      return builder.build();
    }
    LongBlock.Builder builder = LongBlock.builder(DataType.LONG, to - from);
    for (int i = from; i < to; i++) {
      Object result = results[order[i]][f];
      if (result == null) {
        builder.appendNull();
      } else {
        builder.append((Long) result);
      }
    }
    return builder.build();
  }

  /** A by-field's group value: a {@code _time} group is a time again (its microseconds). */
  private static Object groupValue(String field, String key) {
    if (TimeField.is(field)) {
      try {
        return Long.parseLong(key);
      } catch (NumberFormatException notMicros) {
        return key;
      }
    }
    return key;
  }

  /** A result as a cell: a list is a multivalue; one named {@code _time} is a time again. */
  private static List<Object> cell(String name, Object result) {
    if (result == null) {
      return List.of();
    }
    if (TimeField.is(name)) {
      result = TimeField.micros(result);
    }
    return result instanceof List<?> list ? List.copyOf(list) : List.of(result);
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
