package io.quarry.ql.engine.aggregation;

import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * A partial's groups merged into a hash aggregation with the search pool's help once the scan is
 * over ({@link HashAggregationOperator#mergeOn}): the partial's groups go in rounds of {@link
 * #ROUND}; in each round one task looks the next round's keys up here (the only task that writes
 * the keys) while one task per function merges this round's states (each writes only its own
 * function's states), all through {@link SharedTasks}. Between rounds the caller grows the
 * functions for the groups the lookups added. The groups of one partial have distinct keys, so
 * every state is merged into once and the result is the one the chunked merge on one thread makes.
 */
final class SharedMerge {
  /**
   * Groups a round merges: a few rounds for 200,000 groups, each handing out 1 + functions tasks.
   */
  static final int ROUND = 16_384;

  /** Keys a lookup takes together (see {@link BytesKeyHash#idsOf}). */
  private static final int LOOKUP = 1024;

  private final GroupKeys keys;
  private final GroupingFunction[] functions;
  private final GroupKeys theirKeys;
  private final GroupingFunction[] theirFunctions;
  private final int[][] ids = new int[2][]; // round r's ids in ids[r & 1]
  private final int[] chunk = new int[LOOKUP];

  private SharedMerge(
      GroupKeys keys,
      GroupingFunction[] functions,
      GroupKeys theirKeys,
      GroupingFunction[] theirFunctions) {
    this.keys = keys;
    this.functions = functions;
    this.theirKeys = theirKeys;
    this.theirFunctions = theirFunctions;
  }

  /**
   * Merges {@code theirKeys}' groups and {@code theirFunctions}' states into {@code keys} and
   * {@code functions}, with up to {@code helpers} threads of {@code parallel} besides the caller;
   * {@code grow} makes room in the functions for the groups the keys hold now and returns the bytes
   * they take. Once {@code stop} says so no further task starts and a {@link
   * java.util.concurrent.CancellationException} is thrown, the merge left half done.
   *
   * @return the bytes the merge grew (grown groups and states)
   */
  static long run(
      GroupKeys keys,
      GroupingFunction[] functions,
      GroupKeys theirKeys,
      GroupingFunction[] theirFunctions,
      LongSupplier grow,
      Executor parallel,
      int helpers,
      BooleanSupplier stop) {
    return new SharedMerge(keys, functions, theirKeys, theirFunctions)
        .run(grow, parallel, helpers, stop);
  }

  /** Groups a merge on one thread looks up together, as a page's rows are. */
  private static final int MERGE_CHUNK = 1024;

  /**
   * Merges {@code theirKeys}' groups and {@code theirFunctions}' states into {@code keys} and
   * {@code functions} on this thread, a chunk at a time: the chunk's keys looked up together, then
   * each function merges the chunk's states in one loop (a call per group and function let one
   * cache miss wait on the last: the merge after a 200,000-group scan runs on one thread); {@code
   * grow} as for {@link #run}.
   *
   * @return the bytes the merge grew
   */
  static long alone(
      GroupKeys keys,
      GroupingFunction[] functions,
      GroupKeys theirKeys,
      GroupingFunction[] theirFunctions,
      LongSupplier grow) {
    long grown = 0;
    int groups = theirKeys.size();
    int[] ids = new int[Math.min(groups, MERGE_CHUNK)];
    for (int from = 0; from < groups; from += MERGE_CHUNK) {
      int count = Math.min(MERGE_CHUNK, groups - from);
      keys.idsOf(theirKeys, from, count, ids);
      grown += grow.getAsLong();
      for (int f = 0; f < functions.length; f++) {
        grown += functions[f].mergePage(ids, count, theirFunctions[f], from);
      }
    }
    return grown;
  }

  private long run(LongSupplier grow, Executor parallel, int helpers, BooleanSupplier stop) {
    int groups = theirKeys.size();
    int rounds = (groups + ROUND - 1) / ROUND;
    ids[0] = new int[Math.min(groups, ROUND)];
    ids[1] = new int[Math.min(groups, ROUND)];
    lookUp(0);
    long grown = grow.getAsLong();
    long[] stateBytes = new long[functions.length];
    for (int r = 0; r < rounds; r++) {
      int round = r;
      SharedTasks.run(
          1 + functions.length,
          task -> {
            if (task == 0) {
              lookUp(round + 1);
            } else {
              int from = round * ROUND;
              stateBytes[task - 1] +=
                  functions[task - 1].mergePage(
                      ids[round & 1],
                      Math.min(ROUND, groups - from),
                      theirFunctions[task - 1],
                      from);
            }
          },
          parallel,
          helpers,
          stop);
      grown += grow.getAsLong(); // room for the next round's groups, no task running
    }
    for (long bytes : stateBytes) {
      grown += bytes;
    }
    return grown;
  }

  /** Looks round {@code round}'s keys up here into {@code ids[round & 1]} (none past the last). */
  private void lookUp(int round) {
    int from = round * ROUND;
    int to = Math.min(theirKeys.size(), from + ROUND);
    int[] into = ids[round & 1];
    for (int at = from; at < to; at += LOOKUP) {
      int count = Math.min(LOOKUP, to - at);
      keys.idsOf(theirKeys, at, count, chunk);
      System.arraycopy(chunk, 0, into, at - from, count);
    }
  }
}
