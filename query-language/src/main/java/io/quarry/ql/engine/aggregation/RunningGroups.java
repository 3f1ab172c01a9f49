package io.quarry.ql.engine.aggregation;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.exec.TimeField;
import java.util.List;

/**
 * A {@code stats} command's function states by group, fed one position at a time and read at any
 * moment: what {@code eventstats} and {@code streamstats} keep on pages (their stages are in {@code
 * exec}). The group keys are {@link GroupKeys}' and the states the per-function classes' ({@link
 * GroupingFunction}), as {@link HashAggregationOperator} keeps them, so a result equals {@code
 * stats}' value for value. {@link #bind} a page, then ask a position's groups ({@link #groupsOf})
 * and add it to them ({@link #add}). Without grouping ({@code grouped} false) there is one group,
 * 0, whatever the by-fields: a window's group of the moment. Not thread-safe.
 */
public final class RunningGroups {
  private final StatsCommand command;
  private final GroupKeys keys;
  private final GroupingFunction[] functions;
  private final String[] fields; // per function, null for count()
  private final boolean needsTime;
  private final long bytesPerGroup;
  private final Block[] keyBlocks;
  private final Block[] valueBlocks;
  private Block times;
  private Page bound;
  private int grownTo;
  private long grown; // bytes of new groups not yet handed out

  public RunningGroups(StatsCommand command, boolean grouped) {
    this.command = requireNonNull(command, "command is null");
    this.keys = new GroupKeys(grouped ? command.groupBy().size() : 0);
    List<Aggregation> aggregations = command.aggregations();
    this.functions = new GroupingFunction[aggregations.size()];
    this.fields = new String[aggregations.size()];
    long bytes = 0;
    for (int f = 0; f < functions.length; f++) {
      functions[f] = GroupingFunction.of(aggregations.get(f));
      fields[f] = aggregations.get(f).field().orElse(null);
      bytes += functions[f].bytesPerGroup();
    }
    this.bytesPerGroup = bytes;
    this.needsTime = aggregations.stream().anyMatch(GroupingFunction::needsTime);
    this.keyBlocks = new Block[grouped ? command.groupBy().size() : 0];
    this.valueBlocks = new Block[functions.length];
    grow();
  }

  /** Whether every aggregation of {@code command} has a page implementation. */
  public static boolean supports(StatsCommand command) {
    return HashAggregationOperator.supports(command);
  }

  /**
   * The fields the command reads: the by-fields, the functions' fields, {@code _time} if needed.
   */
  public static List<String> inputFields(StatsCommand command) {
    return HashAggregationOperator.inputFields(command);
  }

  /** The page whose positions are asked of and added next. */
  public void bind(Page page) {
    if (page == bound) {
      return;
    }
    bound = page;
    for (int k = 0; k < keyBlocks.length; k++) {
      keyBlocks[k] = page.block(command.groupBy().get(k));
    }
    for (int f = 0; f < functions.length; f++) {
      valueBlocks[f] = fields[f] == null ? null : page.block(fields[f]);
    }
    times = needsTime ? page.block(TimeField.NAME) : null;
  }

  /**
   * The groups of the bound page's {@code position} (new ones made, empty), their ids {@link
   * #ids()}{@code [0, n)} in the order the position's values come: one per distinct combination of
   * the by-fields' values, none when a by-field has no value.
   *
   * @return n
   */
  public int groupsOf(int position) {
    int n = keys.groupsOf(keyBlocks, position);
    grown += grow();
    return n;
  }

  /** The ids {@link #groupsOf} found. */
  public int[] ids() {
    return keys.ids();
  }

  /** Adds the bound page's {@code position} to {@code group}'s states. */
  public void add(int group, int position) {
    long time = needsTime ? StatsInput.time(times, position) : Long.MIN_VALUE;
    for (int f = 0; f < functions.length; f++) {
      grown += functions[f].add(group, valueBlocks[f], position, time);
    }
  }

  /**
   * The bytes the states grew by since last asked (new groups' keys and states, values kept): the
   * caller counts them on its search's memory.
   */
  public long takeGrownBytes() {
    long bytes = grown;
    grown = 0;
    return bytes;
  }

  /**
   * Group {@code group}'s result of aggregation {@code f} as it is set on a position: a {@code
   * Long}, {@code Double}, {@code String}, a {@code List} of several values, or null; one named
   * {@code _time} a time again (epoch microseconds).
   */
  public Object result(int group, int f) {
    Object result = functions[f].result(group);
    return result != null && TimeField.is(command.aggregations().get(f).outputName())
        ? TimeField.micros(result)
        : result;
  }

  /** The number of aggregations. */
  public int functionCount() {
    return functions.length;
  }

  /** The number of groups made so far; ids are {@code [0, groupCount())}. */
  public int groupCount() {
    return grownTo;
  }

  /** Every group's states empty again (the keys and their ids stay). */
  public void reset() {
    for (int f = 0; f < functions.length; f++) {
      functions[f] = GroupingFunction.of(command.aggregations().get(f));
      functions[f].grow(grownTo);
    }
    grown = 0;
  }

  /** The estimated bytes of the keys and empty states of every group. */
  public long groupBytes() {
    long bytes = 0;
    for (int id = 0; id < grownTo; id++) {
      bytes += keys.keyBytes(id) + bytesPerGroup;
    }
    return bytes;
  }

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
}
