package io.quarry.ql.engine.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.ql.parser.Parser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A {@code stats … by} answer made with a real thread pool's help ({@link
 * HashAggregationOperator#finishOn}: the sort beside the results, the pages shared, {@link
 * SharedTasks}) against the answer computed here with a sorted map over the same rows: same rows,
 * same order, same types, with one and with two by-fields; and the task sharing itself.
 */
class SharedAnswerTest {
  private static final ExecutorService POOL = Executors.newFixedThreadPool(3);

  @AfterAll
  static void shutdown() {
    POOL.shutdownNow();
  }

  private static HashAggregationOperator operator(String command) {
    return operator(command, MemoryTracker.unbounded("stats"));
  }

  private static HashAggregationOperator operator(String command, MemoryTracker memory) {
    StatsCommand stats =
        (StatsCommand)
            new Parser(CommandRegistry.builtIns()).parse("* | " + command).commands().get(1);
    return new HashAggregationOperator(stats, memory, 1000);
  }

  /** A session id of lower-case letters: its text order is Splunk's order of the groups. */
  private static String session(Random random) {
    char[] id = new char[6];
    for (int i = 0; i < id.length; i++) {
      id[i] = (char) ('a' + random.nextInt(26));
    }
    return new String(id);
  }

  /** Rows {@code g, h, t}: 40,000 sessions seen 1 to 4 times, {@code h} one of three hosts. */
  private static List<Object[]> rows() {
    Random random = new Random(21);
    List<Object[]> rows = new ArrayList<>();
    for (int s = 0; s < 40_000; s++) {
      String g = session(random);
      for (int seen = 1 + random.nextInt(4); seen > 0; seen--) {
        rows.add(new Object[] {g, "h" + random.nextInt(3), (long) random.nextInt(1_000_000)});
      }
    }
    java.util.Collections.shuffle(rows, random);
    return rows;
  }

  private static void feed(HashAggregationOperator operator, List<Object[]> rows) {
    Schema schema =
        new Schema(
            List.of(
                new Schema.Column("g", DataType.STRING),
                new Schema.Column("h", DataType.STRING),
                new Schema.Column("t", DataType.LONG)));
    for (int from = 0; from < rows.size(); from += 777) {
      int to = Math.min(rows.size(), from + 777);
      BytesBlock.Builder g = BytesBlock.builder(to - from);
      BytesBlock.Builder h = BytesBlock.builder(to - from);
      LongBlock.Builder t = LongBlock.builder(DataType.LONG, to - from);
      for (Object[] row : rows.subList(from, to)) {
        g.append((String) row[0]);
        h.append((String) row[1]);
        t.append((Long) row[2]);
      }
      operator.addInput(new Page(schema, List.of(g.build(), h.build(), t.build()), to - from));
    }
  }

  /** The answer's rows, each cell as its block answers it, with the blocks' types. */
  private static List<List<Object>> answer(HashAggregationOperator operator, boolean shared) {
    if (shared) {
      operator.finishOn(POOL, 3, SharedTasks.NEVER);
    } else {
      operator.finish();
    }
    List<List<Object>> rows = new ArrayList<>();
    for (Page page = operator.getOutput(); page != null; page = operator.getOutput()) {
      for (int p = 0; p < page.positionCount(); p++) {
        List<Object> row = new ArrayList<>();
        for (int c = 0; c < page.blocks().size(); c++) {
          Block block = page.block(c);
          row.add(block.dataType() + ":" + block.getObject(p));
        }
        rows.add(row);
      }
    }
    operator.close();
    return rows;
  }

  /**
   * {@code stats range(t), count by g} over {@code rows} computed with a sorted map: one row per
   * session in text order, its range and count.
   */
  private static List<List<Object>> rangeAndCountBySession(List<Object[]> rows) {
    Map<String, long[]> expected = new TreeMap<>(); // min, max, count
    for (Object[] row : rows) {
      long t = (Long) row[2];
      long[] state =
          expected.computeIfAbsent(
              (String) row[0], g -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE, 0});
      state[0] = Math.min(state[0], t);
      state[1] = Math.max(state[1], t);
      state[2]++;
    }
    List<List<Object>> wanted = new ArrayList<>();
    expected.forEach(
        (g, s) -> wanted.add(List.of("STRING:" + g, "LONG:" + (s[1] - s[0]), "LONG:" + s[2])));
    return wanted;
  }

  @Test
  void oneByFieldAnswersEverySessionInTextOrderWithItsRangeAndCount() {
    List<Object[]> rows = rows();
    List<List<Object>> wanted = rangeAndCountBySession(rows);

    HashAggregationOperator shared = operator("stats range(t) AS duration, count by g");
    feed(shared, rows);
    assertThat(shared.groupCount()).isGreaterThan(30_000);
    assertThat(answer(shared, true)).isEqualTo(wanted);
  }

  @Test
  void twoByFieldsAnswerTheSameRowsAsOnOneThread() {
    List<Object[]> rows = rows();
    Map<String, Long> expected = new TreeMap<>(); // "g h" -> count: g then h in text order
    for (Object[] row : rows) {
      expected.merge(row[0] + " " + row[1], 1L, Long::sum);
    }
    List<List<Object>> wanted = new ArrayList<>();
    expected.forEach(
        (gh, count) -> {
          String[] key = gh.split(" ");
          wanted.add(List.of("STRING:" + key[0], "STRING:" + key[1], "LONG:" + count));
        });
    HashAggregationOperator shared = operator("stats count by g, h");
    feed(shared, rows);
    List<List<Object>> answered = answer(shared, true);
    assertThat(answered).isEqualTo(wanted);
    HashAggregationOperator alone = operator("stats count by g, h");
    feed(alone, rows);
    assertThat(answer(alone, false)).isEqualTo(answered);
  }

  /**
   * The final of {@code command} after three partials, fed a third of the rows each, merged into it
   * with the pool's help ({@code shared}) or on the caller alone; {@code used} gets the final's
   * counted bytes after the merges.
   */
  private static HashAggregationOperator merged(
      String command, List<Object[]> rows, boolean shared, long[] used) {
    MemoryTracker memory = MemoryTracker.unbounded("stats");
    HashAggregationOperator total = operator(command, memory);
    List<HashAggregationOperator> partials = new ArrayList<>();
    int third = rows.size() / 3;
    for (int part = 0; part < 3; part++) {
      HashAggregationOperator partial = total.newPartial();
      feed(partial, rows.subList(part * third, part == 2 ? rows.size() : (part + 1) * third));
      partials.add(partial);
    }
    for (HashAggregationOperator partial : partials) {
      total.mergeOn(partial, shared ? POOL : null, 3, SharedTasks.NEVER);
      partial.close();
    }
    used[0] = memory.used();
    return total;
  }

  @Test
  void partialsMergedWithHelpersAnswerAsMergedOnOneThread() {
    List<Object[]> rows = rows();
    // every kind of state: counts, numbers, text extremes, distinct values, lists, time order
    String command =
        "stats range(t) AS duration, count, avg(t), min(h), dc(h), values(h), list(h),"
            + " earliest(t), perc50(t), stdev(t), mode(h) by g";
    long[] sharedBytes = new long[1];
    long[] aloneBytes = new long[1];
    HashAggregationOperator shared = merged(command, rows, true, sharedBytes);
    assertThat(shared.groupCount()).isGreaterThan(3 * SharedMerge.ROUND / 2);
    HashAggregationOperator alone = merged(command, rows, false, aloneBytes);
    assertThat(sharedBytes[0]).isEqualTo(aloneBytes[0]).isPositive();
    assertThat(answer(shared, true)).isEqualTo(answer(alone, false));

    // and range and count as a sorted map over the rows answers them
    List<List<Object>> wanted = rangeAndCountBySession(rows);
    assertThat(
            answer(merged("stats range(t) AS duration, count by g", rows, true, sharedBytes), true))
        .isEqualTo(wanted);
  }

  @Test
  void everyTaskRunsOnceWithHelpers() {
    AtomicIntegerArray runs = new AtomicIntegerArray(500);
    SharedTasks.run(500, runs::incrementAndGet, POOL, 3);
    for (int i = 0; i < 500; i++) {
      assertThat(runs.get(i)).as("task %d", i).isEqualTo(1);
    }
  }

  @Test
  void theCallerDoesEveryTaskWhenThePoolRefuses() {
    AtomicIntegerArray runs = new AtomicIntegerArray(50);
    Thread caller = Thread.currentThread();
    SharedTasks.run(
        50,
        i -> {
          assertThat(Thread.currentThread()).isSameAs(caller);
          runs.incrementAndGet(i);
        },
        work -> {
          throw new RejectedExecutionException("busy");
        },
        3);
    for (int i = 0; i < 50; i++) {
      assertThat(runs.get(i)).isEqualTo(1);
    }
  }

  @Test
  void aTaskFailureReachesTheCaller() {
    assertThatThrownBy(
            () ->
                SharedTasks.run(
                    100,
                    i -> {
                      if (i == 37) {
                        throw new IllegalStateException("task 37");
                      }
                    },
                    POOL,
                    3))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("task 37");
  }
}
