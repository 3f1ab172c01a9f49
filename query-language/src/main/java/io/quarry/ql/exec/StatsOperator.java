package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.StatsCommand;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code stats}: groups rows by the values of the by-fields (a row missing one is skipped; a
 * multivalue field puts the row in one group per value) and emits one row per group at the end, in
 * ascending natural order of the group values. Without by-fields it emits exactly one row, also
 * when no rows came.
 */
public final class StatsOperator implements Aggregator {
  private final StatsCommand command;
  private final RowSink downstream;
  private final Map<List<Object>, Accumulator[]> groups = new HashMap<>();

  /**
   * With one by-field: the groups by that field's text, in front of {@link #groups} (the same
   * accumulators), so a row's group is found without building its key list or hashing it
   * (search-time {@code stats count by ip} spent a third of its time in the lookup). Cleared with
   * {@link #groups}.
   */
  private final Map<String, Accumulator[]> byText = new HashMap<>();

  /**
   * With one by-field and only simple aggregations ({@link GroupStates#canHold}): the groups by
   * that field's text and their states in arrays, kept apart from {@link #groups} (which hold none
   * of them) until {@link #groups()} is read. Both null otherwise.
   */
  private final TextGroups textGroups;

  private final GroupStates states;

  /** The only by-field, or null. */
  private final String onlyBy;

  private final MemoryTracker memory;

  /** Whether a function orders values by {@code _time} (first, last, earliest, latest). */
  private final boolean needsTime;

  public StatsOperator(StatsCommand command, RowSink downstream) {
    this(command, downstream, MemoryTracker.unbounded("stats"));
  }

  /** As above, what it holds counted by {@code memory} (the search's limit applies). */
  public StatsOperator(StatsCommand command, RowSink downstream, MemoryTracker memory) {
    this.memory = requireNonNull(memory, "memory is null");
    this.command = requireNonNull(command, "command is null");
    this.needsTime =
        command.aggregations().stream()
            .anyMatch(
                a ->
                    switch (a.function()) {
                      case FIRST, LAST, EARLIEST, LATEST, EARLIEST_TIME, LATEST_TIME, RATE -> true;
                      default -> false;
                    });
    this.downstream = requireNonNull(downstream, "downstream is null");
    this.onlyBy = command.groupBy().size() == 1 ? command.groupBy().get(0) : null;
    boolean simple = onlyBy != null && GroupStates.canHold(command.aggregations());
    this.textGroups = simple ? new TextGroups() : null;
    this.states = simple ? new GroupStates(command.aggregations()) : null;
  }

  @Override
  public boolean accept(Row row) {
    long time = needsTime ? time(row) : Long.MIN_VALUE;
    if (onlyBy != null) {
      String text = onlyText(row);
      if (text != null) {
        if (states != null) {
          states.add(stateId(text), row);
          return true;
        }
        Accumulator[] accumulators = byText.get(text);
        if (accumulators == null) {
          accumulators = group(List.of(text));
          byText.put(text, accumulators);
        }
        memory.add(add(accumulators, row, time));
        return true;
      }
    }
    for (List<Object> key : keys(row)) {
      memory.add(add(group(key), row, time));
    }
    return true;
  }

  /** The accumulators of a group, new (and counted) if it has none yet. */
  private Accumulator[] group(List<Object> key) {
    Accumulator[] accumulators = groups.get(key);
    if (accumulators == null) {
      accumulators = newAccumulators();
      groups.put(key, accumulators);
      memory.add(groupBytes(key));
    }
    return accumulators;
  }

  /**
   * The only by-field's value as text when the row has exactly one (a field a {@code rex} just set
   * comes through {@link Row#text}, no value list built), else null.
   */
  private String onlyText(Row row) {
    CharSequence text = row.text(onlyBy);
    if (text != null) {
      return text.toString();
    }
    List<Object> values = row.values(onlyBy);
    return values.size() == 1 ? Values.toText(values.get(0)) : null;
  }

  /** The id of a group held in {@link #states}, made (empty, counted) when it is new. */
  private int stateId(String key) {
    int id = textGroups.id(key);
    if (id >= 0) {
      return id;
    }
    id = -id - 1;
    states.init(id);
    memory.add(stateBytes(key));
    return id;
  }

  /** What a group held in {@link #states} takes: its key, table slots and states. */
  private long stateBytes(String key) {
    return TextGroups.KEY_OVERHEAD_BYTES + MemoryTracker.valueBytes(key) + states.bytesPerGroup();
  }

  /** Forgets the groups held in {@link #states}, releasing what they took. */
  private void dropStates() {
    long held = 0;
    for (int id = 0; id < textGroups.size(); id++) {
      held += stateBytes(textGroups.key(id));
    }
    textGroups.clear();
    memory.add(-held);
  }

  /** Every group, those held in {@link #states} added to them first. */
  private Map<List<Object>, Accumulator[]> groups() {
    if (states != null && textGroups.size() > 0) {
      for (int id = 0; id < textGroups.size(); id++) {
        Accumulator[] accumulators = group(List.of(textGroups.key(id)));
        for (int i = 0; i < accumulators.length; i++) {
          accumulators[i].absorb(states, id, i);
        }
      }
      dropStates();
    }
    return groups;
  }

  /** Drops every group. */
  private void clearGroups() {
    groups.clear();
    byText.clear();
    if (states != null) {
      dropStates();
    }
  }

  /** Adds a row to a group's accumulators; returns the bytes they grew by. */
  private long add(Accumulator[] accumulators, Row row, long time) {
    long grown = 0;
    for (int i = 0; i < accumulators.length; i++) {
      Aggregation aggregation = command.aggregations().get(i);
      if (aggregation.field().isEmpty()) {
        accumulators[i].addRow();
      } else {
        for (Object value : row.values(aggregation.field().get())) {
          grown += accumulators[i].add(value, time);
        }
      }
    }
    return grown;
  }

  /** The estimated heap size of a new group: its key and one accumulator per aggregation. */
  private long groupBytes(List<Object> key) {
    long bytes = MemoryTracker.ENTRY_BYTES + 120L * command.aggregations().size();
    for (Object value : key) {
      bytes += MemoryTracker.valueBytes(value);
    }
    return bytes;
  }

  /**
   * The groups of a row (one per combination of its by-fields' values; none when a by-field is
   * missing), for the commands that add aggregations to rows.
   */
  List<List<Object>> groupsOf(Row row) {
    return keys(row);
  }

  /**
   * One group's aggregations, kept apart from this operator's own groups: what {@code eventstats}
   * and {@code streamstats} add to rows.
   */
  final class Group {
    private final Accumulator[] accumulators = newAccumulators();

    /** Adds a row; returns the estimated bytes the group grew by (distinct values, kept ones). */
    long add(Row row) {
      return StatsOperator.this.add(accumulators, row, needsTime ? time(row) : Long.MIN_VALUE);
    }

    /** The estimated heap size of this group when new, under {@code key}. */
    long bytes(List<Object> key) {
      return groupBytes(key);
    }

    /** Puts each aggregation's current value under its output name (null when it has none). */
    void putResults(Map<String, Object> into) {
      for (int i = 0; i < accumulators.length; i++) {
        Aggregation aggregation = command.aggregations().get(i);
        into.put(
            aggregation.outputName(),
            result(aggregation.outputName(), accumulators[i].result(aggregation)));
      }
    }
  }

  /**
   * A result as output under {@code name}: results are epoch seconds where they are times ({@code
   * max(_time)}), and one named {@code _time} is a time again ({@link TimeField#micros}).
   */
  private static Object result(String name, Object result) {
    return TimeField.is(name) && result != null ? TimeField.micros(result) : result;
  }

  /** A row's {@code _time} (epoch microseconds), or Long.MIN_VALUE when it has none. */
  private static long time(Row row) {
    List<Object> times = row.values("_time");
    return !times.isEmpty() && times.get(0) instanceof Long micros ? micros : Long.MIN_VALUE;
  }

  /** The groups a row falls in: one per combination of its by-fields' values. */
  private List<List<Object>> keys(Row row) {
    List<String> groupBy = command.groupBy();
    if (groupBy.isEmpty()) {
      return NO_GROUP;
    }
    if (groupBy.size() == 1) { // the common case, without the general combination machinery
      List<Object> values = row.values(groupBy.get(0));
      if (values.size() == 1) {
        return List.of(List.of(Values.toText(values.get(0))));
      }
    }
    List<List<Object>> keys = new ArrayList<>();
    collectKeys(row, 0, new ArrayList<>(), keys);
    return keys;
  }

  private static final List<List<Object>> NO_GROUP = List.of(List.of());

  private void collectKeys(Row row, int index, List<Object> prefix, List<List<Object>> into) {
    if (index == command.groupBy().size()) {
      into.add(List.copyOf(prefix));
      return;
    }
    for (Object value : new java.util.LinkedHashSet<>(row.values(command.groupBy().get(index)))) {
      prefix.add(Values.toText(value));
      collectKeys(row, index + 1, prefix, into);
      prefix.remove(prefix.size() - 1);
    }
  }

  private Accumulator[] newAccumulators() {
    Accumulator[] accumulators = new Accumulator[command.aggregations().size()];
    for (int i = 0; i < accumulators.length; i++) {
      accumulators[i] = new Accumulator(command.aggregations().get(i));
    }
    return accumulators;
  }

  /**
   * Adds the groups of a partial {@code stats} over other rows (the map side of a map/reduce split:
   * one partial per segment slice, merged here before {@link #finish}). The partial must run the
   * same command and must not be finished.
   */
  @Override
  public Aggregator newPartial() {
    return partial();
  }

  @Override
  public boolean partialsOutliveMerges() {
    return true;
  }

  @Override
  public void merge(Aggregator other) {
    if (!(other instanceof StatsOperator partial) || !partial.command.equals(command)) {
      throw new IllegalArgumentException("cannot merge stats of another command");
    }
    // the partial's reservation goes; what its groups add here is counted again (groups and values
    // it shares with this one are not kept twice)
    partial.memory.release();
    if (states != null) { // the same command: the partial holds states too
      for (int from = 0; from < partial.textGroups.size(); from++) {
        states.merge(stateId(partial.textGroups.key(from)), partial.states, from);
      }
      partial.textGroups.clear(); // its memory went with the reservation above
    }
    partial
        .groups()
        .forEach(
            (key, theirs) -> {
              Accumulator[] ours = groups.putIfAbsent(key, theirs);
              long grown = 0;
              if (ours == null) {
                grown += groupBytes(key);
                for (Accumulator accumulator : theirs) {
                  grown += accumulator.heldBytes();
                }
              } else {
                for (int i = 0; i < ours.length; i++) {
                  grown += ours[i].merge(theirs[i]);
                }
              }
              memory.add(grown);
            });
    partial.clearGroups();
  }

  /** The command this operator runs. */
  public StatsCommand command() {
    return command;
  }

  /** The keys of the groups held so far (texts of the by-fields' values). */
  public java.util.Set<List<Object>> groupKeys() {
    return java.util.Collections.unmodifiableSet(groups().keySet());
  }

  /**
   * Moves every group to a new key (null: the group is dropped), merging groups that meet: how
   * {@code timechart} coarsens its buckets and folds small series into OTHER.
   */
  public void regroup(java.util.function.UnaryOperator<List<Object>> newKey) {
    Map<List<Object>, Accumulator[]> moved = new HashMap<>();
    groups()
        .forEach(
            (key, accumulators) -> {
              List<Object> target = newKey.apply(key);
              if (target == null) {
                return;
              }
              Accumulator[] into = moved.putIfAbsent(target, accumulators);
              if (into != null) {
                for (int i = 0; i < into.length; i++) {
                  into[i].merge(accumulators[i]);
                }
              }
            });
    clearGroups();
    groups.putAll(moved);
  }

  /**
   * Adds another operator's groups without taking them from it (each accumulator merged into a
   * fresh one): how a preview works on a copy while the search goes on. The copy's memory is this
   * operator's tracker's.
   */
  void addCopyOf(StatsOperator other) {
    other
        .groups()
        .forEach(
            (key, theirs) -> {
              Accumulator[] ours =
                  groups.computeIfAbsent(
                      key,
                      k -> {
                        memory.add(groupBytes(k));
                        return newAccumulators();
                      });
              long grown = 0;
              for (int i = 0; i < ours.length; i++) {
                grown += ours[i].merge(theirs[i]);
              }
              memory.add(grown);
            });
  }

  /** A partial {@code stats}: it only accumulates, to be {@link #merge merged} into a final one. */
  public static StatsOperator partial(StatsCommand command) {
    return new StatsOperator(command, PARTIAL);
  }

  /** A partial whose memory counts against the same search as this operator's. */
  private StatsOperator partial() {
    return new StatsOperator(command, PARTIAL, memory.sibling());
  }

  @Override
  public void finish() {
    emit(downstream);
    clearGroups();
    memory.release();
    downstream.finish();
  }

  /** Emits the groups so far into {@code target} and finishes it; this operator keeps them. */
  @Override
  public boolean snapshot(RowSink target) {
    emit(target);
    target.finish();
    return true;
  }

  /**
   * One row per group, in group-value order (no group and no by-field: one row of empty results).
   */
  private void emit(RowSink target) {
    Map<List<Object>, Accumulator[]> groups = groups();
    if (groups.isEmpty() && command.groupBy().isEmpty()) {
      groups = Map.of(List.of(), newAccumulators());
    }
    record Sorted(List<Object> key, Values.Sortable[] order) {}
    List<Sorted> sorted = new ArrayList<>(groups.size());
    for (List<Object> key : groups.keySet()) {
      Values.Sortable[] order = new Values.Sortable[key.size()];
      for (int i = 0; i < order.length; i++) {
        order[i] = Values.Sortable.of(key.get(i));
      }
      sorted.add(new Sorted(key, order));
    }
    sorted.sort(
        (a, b) -> {
          for (int i = 0; i < a.order().length; i++) {
            int c = a.order()[i].compareTo(b.order()[i]);
            if (c != 0) {
              return c;
            }
          }
          return 0;
        });
    // every result first: a column whose numbers are whole in some groups and not in others is
    // emitted as doubles throughout, so every page of the answer types it alike (pages are typed
    // one by one, and CSV and Arrow streams fix their types from the first rows)
    List<String> outputs = command.aggregations().stream().map(Aggregation::outputName).toList();
    Object[][] results = new Object[sorted.size()][];
    boolean[] anyLong = new boolean[outputs.size()];
    boolean[] anyDouble = new boolean[outputs.size()];
    for (int g = 0; g < results.length; g++) {
      Accumulator[] accumulators = groups.get(sorted.get(g).key());
      results[g] = new Object[accumulators.length];
      for (int i = 0; i < accumulators.length; i++) {
        Object result = accumulators[i].result(command.aggregations().get(i));
        results[g][i] = result;
        anyLong[i] |= result instanceof Long;
        anyDouble[i] |= result instanceof Double;
      }
    }
    for (int g = 0; g < results.length; g++) {
      List<Object> key = sorted.get(g).key();
      Map<String, Object> values = new LinkedHashMap<>();
      for (int i = 0; i < key.size(); i++) {
        values.put(
            command.groupBy().get(i), TimeField.groupValue(command.groupBy().get(i), key.get(i)));
      }
      for (int i = 0; i < outputs.size(); i++) {
        Object result = results[g][i];
        values.put(
            outputs.get(i),
            result(
                outputs.get(i),
                anyLong[i] && anyDouble[i] && result instanceof Long whole
                    ? (double) whole
                    : result));
      }
      results[g] = null;
      if (!target.accept(new MapRow(values))) {
        break;
      }
    }
  }

  /**
   * The state of one function for one group. Only what the function needs is kept: a count and a
   * sum for {@code sum}, every numeric value for exact percentiles, and so on. Over {@code _time}
   * it works on epoch seconds ({@link TimeField}): numbers and texts are read as seconds as they
   * come; {@code first}/{@code last}/{@code earliest}/{@code latest} keep the value as it came and
   * convert the one they answer; {@code min}, {@code max} and {@code range} answer to the
   * microsecond (a range of doubles near 1.7e9 would not be).
   */
  private static final class Accumulator {
    private final AggregateFunction function;
    private final boolean overTime; // over _time
    private long count;
    private long numericCount;
    private double sum;
    private boolean allIntegral = true;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;
    private double mean; // Welford, for var/stdev
    private double m2;
    private Set<String> distinct; // dc, values
    private DistinctSketch sketch; // estdc
    private List<Object> list; // list (first LIST_LIMIT values)
    private double[] numbers; // median, perc
    private Map<String, long[]> counts; // mode
    private Object newest; // first, latest: the value with the greatest _time
    private long newestTime = Long.MIN_VALUE;
    private Object oldest; // last, earliest: the value with the smallest _time
    private long oldestTime = Long.MAX_VALUE;

    Accumulator(Aggregation aggregation) {
      this.function = aggregation.function();
      this.overTime = aggregation.field().filter(TimeField::is).isPresent();
    }

    /** A value's text as this function reads it (seconds for {@code _time}). */
    private String text(Object value) {
      return overTime ? TimeField.secondsText(value) : Values.toText(value);
    }

    void addRow() {
      count++;
    }

    /** Adds what {@code states} counted for aggregation {@code aggregation} of group {@code id}. */
    void absorb(GroupStates states, int id, int aggregation) {
      count += states.state(id, aggregation, GroupStates.COUNT);
      long n =
          states.numeric(aggregation)
              ? states.state(id, aggregation, GroupStates.NUMERIC_COUNT)
              : 0;
      if (n == 0) {
        return;
      }
      numericCount += n;
      sum += Double.longBitsToDouble(states.state(id, aggregation, GroupStates.SUM));
      allIntegral &= states.state(id, aggregation, GroupStates.FRACTIONAL) == 0;
      min = Math.min(min, Double.longBitsToDouble(states.state(id, aggregation, GroupStates.MIN)));
      max = Math.max(max, Double.longBitsToDouble(states.state(id, aggregation, GroupStates.MAX)));
    }

    /** Adds a value; returns the bytes of state it added (values kept for dc, percentiles, …). */
    long add(Object value, long time) {
      count++;
      switch (function) {
        case DISTINCT_COUNT, VALUES -> {
          if (distinct == null) {
            distinct = new HashSet<>();
          }
          String text = text(value);
          return distinct.add(text)
              ? MemoryTracker.ENTRY_BYTES / 2 + MemoryTracker.valueBytes(text)
              : 0;
        }
        case ESTIMATED_DISTINCT_COUNT -> {
          boolean created = sketch == null;
          if (created) {
            sketch = new DistinctSketch();
          }
          sketch.add(text(value));
          return created ? DistinctSketch.BYTES : 0;
        }
        case LIST -> {
          if (list == null) {
            list = new ArrayList<>();
          }
          if (list.size() < LIST_LIMIT) {
            Object kept = overTime ? TimeField.seconds(value) : value;
            list.add(kept);
            return 8 + MemoryTracker.valueBytes(kept);
          }
          return 0;
        }
        case MODE -> {
          if (counts == null) {
            counts = new LinkedHashMap<>();
          }
          String text = text(value);
          long[] counter = counts.get(text);
          if (counter == null) {
            counts.put(text, new long[] {1});
            return MemoryTracker.ENTRY_BYTES + MemoryTracker.valueBytes(text);
          }
          counter[0]++;
          return 0;
        }
        case FIRST, LATEST, LATEST_TIME -> {
          if (newest == null || time > newestTime) {
            newest = value;
            newestTime = time;
          }
          return 0;
        }
        case RATE -> {
          if (newest == null || time > newestTime) {
            newest = value;
            newestTime = time;
          }
          if (oldest == null || time < oldestTime) {
            oldest = value;
            oldestTime = time;
          }
          return 0;
        }
        case LAST, EARLIEST, EARLIEST_TIME -> {
          if (oldest == null
              || time < oldestTime
              || (time == oldestTime && time == Long.MIN_VALUE)) {
            oldest = value;
            oldestTime = time;
          }
          return 0;
        }
        default -> {
          return addNumber(overTime ? TimeField.secondsNumber(value) : Values.toNumber(value));
        }
      }
    }

    /** Returns the bytes of kept values it added (8 per value for median and percentiles). */
    private long addNumber(double number) {
      if (Double.isNaN(number)) {
        return 0;
      }
      numericCount++;
      sum += number;
      allIntegral &= number == Math.rint(number) && Math.abs(number) < 0x1p53;
      min = Math.min(min, number);
      max = Math.max(max, number);
      double delta = number - mean;
      mean += delta / numericCount;
      m2 += delta * (number - mean);
      if (function == AggregateFunction.MEDIAN || function == AggregateFunction.PERCENTILE) {
        if (numbers == null) {
          numbers = new double[16];
        } else if (numericCount > numbers.length) {
          numbers = Arrays.copyOf(numbers, numbers.length * 2);
        }
        numbers[(int) numericCount - 1] = number;
        return 8;
      }
      return 0;
    }

    /** The estimated bytes of the values this accumulator keeps (what {@link #add} counted). */
    long heldBytes() {
      long bytes = numbers == null ? 0 : 8L * numericCount;
      if (sketch != null) {
        bytes += DistinctSketch.BYTES;
      }
      if (distinct != null) {
        for (String value : distinct) {
          bytes += MemoryTracker.ENTRY_BYTES / 2 + MemoryTracker.valueBytes(value);
        }
      }
      if (list != null) {
        for (Object value : list) {
          bytes += 8 + MemoryTracker.valueBytes(value);
        }
      }
      if (counts != null) {
        for (String value : counts.keySet()) {
          bytes += MemoryTracker.ENTRY_BYTES + MemoryTracker.valueBytes(value);
        }
      }
      return bytes;
    }

    /** Adds another accumulator's state; returns the bytes of kept values this one grew by. */
    long merge(Accumulator other) {
      long grown = other.numbers == null ? 0 : 8L * other.numericCount;
      long n = numericCount + other.numericCount;
      if (n > 0) {
        double delta = other.mean - mean;
        m2 = m2 + other.m2 + delta * delta * numericCount * other.numericCount / n;
        mean = mean + delta * other.numericCount / n;
      }
      if (other.numbers != null) {
        double[] merged = Arrays.copyOf(numbers == null ? new double[0] : numbers, (int) n);
        System.arraycopy(other.numbers, 0, merged, (int) numericCount, (int) other.numericCount);
        numbers = merged;
      }
      count += other.count;
      numericCount = n;
      sum += other.sum;
      allIntegral &= other.allIntegral;
      min = Math.min(min, other.min);
      max = Math.max(max, other.max);
      if (other.distinct != null) {
        if (distinct == null) {
          distinct = new HashSet<>();
        }
        for (String value : other.distinct) {
          if (distinct.add(value)) {
            grown += MemoryTracker.ENTRY_BYTES / 2 + MemoryTracker.valueBytes(value);
          }
        }
      }
      if (other.sketch != null) {
        if (sketch == null) {
          sketch = new DistinctSketch();
          grown += DistinctSketch.BYTES;
        }
        sketch.merge(other.sketch);
      }
      if (other.list != null) {
        if (list == null) {
          list = new ArrayList<>();
        }
        for (Object value : other.list) {
          if (list.size() < LIST_LIMIT) {
            list.add(value);
            grown += 8 + MemoryTracker.valueBytes(value);
          }
        }
      }
      if (other.counts != null) {
        if (counts == null) {
          counts = new LinkedHashMap<>();
        }
        for (Map.Entry<String, long[]> entry : other.counts.entrySet()) {
          long[] counter = counts.get(entry.getKey());
          if (counter == null) {
            counts.put(entry.getKey(), new long[] {entry.getValue()[0]});
            grown += MemoryTracker.ENTRY_BYTES + MemoryTracker.valueBytes(entry.getKey());
          } else {
            counter[0] += entry.getValue()[0];
          }
        }
      }
      if (other.newest != null && (newest == null || other.newestTime > newestTime)) {
        newest = other.newest;
        newestTime = other.newestTime;
      }
      if (other.oldest != null && (oldest == null || other.oldestTime < oldestTime)) {
        oldest = other.oldest;
        oldestTime = other.oldestTime;
      }
      return grown;
    }

    Object result(Aggregation aggregation) {
      return switch (function) {
        case COUNT -> count;
        case DISTINCT_COUNT -> (long) (distinct == null ? 0 : distinct.size());
        case ESTIMATED_DISTINCT_COUNT -> sketch == null ? 0L : sketch.estimate();
        // per_*: the sum, divided by the bucket's length where timechart emits it
        case SUM, PER_SECOND, PER_MINUTE, PER_HOUR, PER_DAY ->
            numericCount == 0 ? null : typed(sum);
        case AVG -> numericCount == 0 ? null : sum / numericCount;
        case MIN -> numericCount == 0 ? null : overTime ? TimeField.exactSeconds(min) : typed(min);
        case MAX -> numericCount == 0 ? null : overTime ? TimeField.exactSeconds(max) : typed(max);
        case RANGE ->
            numericCount == 0 ? null : overTime ? TimeField.exactRange(min, max) : typed(max - min);
        case VAR -> numericCount < 2 ? null : m2 / (numericCount - 1);
        case VARP -> numericCount == 0 ? null : m2 / numericCount;
        case STDEV -> numericCount < 2 ? null : Math.sqrt(m2 / (numericCount - 1));
        case STDEVP -> numericCount == 0 ? null : Math.sqrt(m2 / numericCount);
        case MEDIAN, PERCENTILE -> percentile(aggregation.percentile());
        case MODE -> mode();
        case VALUES -> {
          if (distinct == null) {
            yield null;
          }
          List<Object> sorted = new ArrayList<>(distinct);
          sorted.sort(Comparator.comparing(Object::toString));
          yield sorted.size() == 1 ? sorted.get(0) : sorted;
        }
        case LIST -> list == null ? null : list.size() == 1 ? list.get(0) : List.copyOf(list);
        case FIRST, LATEST -> overTime ? TimeField.seconds(newest) : newest;
        case SUMSQ -> numericCount == 0 ? null : m2 + numericCount * mean * mean;
        case LATEST_TIME -> newest == null ? null : TimeField.secondsOf(newestTime);
        case EARLIEST_TIME -> oldest == null ? null : TimeField.secondsOf(oldestTime);
        case RATE -> TimeOrder.rate(newest, newestTime, oldest, oldestTime);
        case LAST, EARLIEST -> overTime ? TimeField.seconds(oldest) : oldest;
      };
    }

    /**
     * The exact percentile, interpolating linearly between the two nearest ranks (the median of an
     * even count is the mean of the middle two).
     */
    private Object percentile(double percent) {
      if (numericCount == 0) {
        return null;
      }
      double[] sorted = Arrays.copyOf(numbers, (int) numericCount);
      Arrays.sort(sorted);
      double rank = percent / 100 * (sorted.length - 1);
      int low = (int) Math.floor(rank);
      int high = (int) Math.ceil(rank);
      double value = sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
      return allIntegral && value == Math.rint(value) ? (Object) (long) value : (Object) value;
    }

    private Object mode() {
      if (counts == null) {
        return null;
      }
      String best = null;
      long bestCount = 0;
      for (Map.Entry<String, long[]> entry : counts.entrySet()) {
        if (entry.getValue()[0] > bestCount) {
          best = entry.getKey();
          bestCount = entry.getValue()[0];
        }
      }
      return best;
    }

    private Object typed(double value) {
      return allIntegral ? (Object) (long) value : (Object) value;
    }
  }

  /** {@code list()} keeps at most this many values, as Splunk does. */
  static final int LIST_LIMIT = 100;
}
