package io.quarry.ql.engine.aggregation;

import io.quarry.ql.exec.MemoryTracker;
import java.util.List;

/**
 * How a {@link HashAggregationOperator} takes in another's groups: a search thread's partial merged
 * into the final ({@link #mergeOn}: by entry where both hold one dictionary's groups, taken whole
 * into an empty final, else key by key, on this thread or shared), and {@code timechart}'s
 * regrouping into new keys ({@link #regrouped}). Moved out of the operator, which keeps its keys
 * and states.
 */
final class StatsMerge {
  private StatsMerge() {}

  /**
   * Adds {@code partial}'s groups to {@code into} ({@link HashAggregationOperator#mergeOn}: the
   * same command) and empties it.
   */
  static void mergeOn(
      HashAggregationOperator into,
      HashAggregationOperator partial,
      java.util.concurrent.Executor parallel,
      int helpers,
      java.util.function.BooleanSupplier stop) {
    mergeEntries(into, partial);
    partial.flushEntries(); // groups of another dictionary than the one here: by text
    if (!into.keys.isEmpty() || partial.keys.isEmpty()) {
      if (parallel != null && partial.keys.size() >= AggregationOutput.PARALLEL_GROUPS) {
        into.memory.add(
            SharedMerge.run(
                into.keys,
                into.functions,
                partial.keys,
                partial.functions,
                into::grow,
                parallel,
                helpers,
                stop));
        partial.clear();
      } else {
        mergeGroups(into, partial);
      }
      return;
    }
    // nothing here yet: take the partial's groups and states as they are instead of looking
    // each of its keys up again (the first of a search's partials, 200,000 lookups with as
    // many groups)
    long bytes = partial.memory.used();
    into.keys = partial.keys;
    for (int f = 0; f < into.functions.length; f++) {
      into.functions[f] = partial.functions[f];
    }
    into.grownTo = partial.grownTo;
    partial.clear(); // new keys and states for it, its memory released
    into.memory.add(bytes);
  }

  /**
   * Merges the partial's groups of a dictionary's entries by entry when this holds the same
   * dictionary (the threads' partials over one segment: no key looked up), or takes them whole when
   * this holds none; the entries' keys are looked up once, when this hands them over. The groups
   * held here by entry were read before anything the partial adds to the keys (its keys, its
   * entries of another dictionary): they are handed to the keys first, so each group's values stay
   * in the order read ({@code list}; among values of one time the first seen stays) — a partial
   * merged for a preview and again at the end answers as if merged once. Where no function's answer
   * depends on that order ({@code count}, {@code range} …) they stay, to be merged by entry with a
   * later partial's of the same dictionary.
   */
  private static void mergeEntries(HashAggregationOperator into, HashAggregationOperator partial) {
    if (into.entries == null) {
      return;
    }
    EntryPartial theirs = partial.entries;
    if (into.orderMatters
        && into.entries.dictionary() != null
        && (!partial.keys.isEmpty()
            || theirs.dictionary() != null && theirs.dictionary() != into.entries.dictionary())) {
      into.flushEntries();
    }
    if (theirs.dictionary() == null) {
      return;
    }
    if (into.entries.dictionary() == null) {
      partial.entries = into.entries; // empty
      into.entries = theirs;
    } else if (into.entries.dictionary() == theirs.dictionary()) {
      into.entries.mergeFrom(theirs);
    }
  }

  /** Adds a partial's groups on this thread ({@link SharedMerge#alone}) and empties it. */
  private static void mergeGroups(HashAggregationOperator into, HashAggregationOperator partial) {
    into.memory.add(
        SharedMerge.alone(into.keys, into.functions, partial.keys, partial.functions, into::grow));
    partial.clear();
  }

  /**
   * A new operator of the same command, counted by {@code memory}, holding {@code from}'s groups
   * moved to new keys ({@code newKey}: null drops a group), groups that meet merged state by state
   * — how {@code timechart} coarsens its buckets and folds small series into OTHER. {@code from}
   * keeps its groups.
   */
  static HashAggregationOperator regrouped(
      HashAggregationOperator from,
      java.util.function.UnaryOperator<List<String>> newKey,
      MemoryTracker memory) {
    from.flushEntries();
    HashAggregationOperator into = new HashAggregationOperator(from.command, memory, from.pageSize);
    long grown = 0;
    for (int group = 0; group < from.keys.size(); group++) {
      List<String> key = newKey.apply(from.key(group));
      if (key == null) {
        continue;
      }
      int id = into.keys.idOf(key);
      grown += into.grow();
      for (int f = 0; f < from.functions.length; f++) {
        grown += into.functions[f].merge(id, from.functions[f], group);
      }
    }
    memory.add(grown);
    return into;
  }
}
