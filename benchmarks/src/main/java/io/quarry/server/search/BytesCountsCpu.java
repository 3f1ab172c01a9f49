package io.quarry.server.search;

import io.quarry.ql.exec.MemoryTracker;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * {@link BytesCounts#addRows} as {@link KeyValueStates} calls it for {@code sessions_range}
 * (session 42, sesskey): session-id-like keys of 14 bytes ({@code SD} and twelve letters or
 * digits), drawn uniformly, copied into a block-like buffer 257 bytes apart, looked up 256 at a
 * time into one table of {@link KeyStateTables#MAX_KEYS}, timed ({@code sessions_range}) or counts
 * alone ({@code stats count by}; {@code timed} false); thread CPU of the lookups alone per round.
 * Built against another jar's {@code BytesCounts} (this class first on the class path, the jar
 * after: the same package), it compares two tables with one workload:
 *
 * <pre>
 * java -cp benchmarks.jar io.quarry.server.search.BytesCountsCpu [lookups] [rounds] [keys] [timed]
 * </pre>
 */
public final class BytesCountsCpu {
  private static final int BATCH = 256;
  private static final int TEXT = 257; // bytes between two keys: an access-log line's

  private BytesCountsCpu() {}

  public static void main(String[] args) {
    int lookups = args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 6;
    int keys = args.length > 2 ? Integer.parseInt(args[2]) : 200_000;
    boolean timed = args.length <= 3 || Boolean.parseBoolean(args[3]);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Random random = new Random(42);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    byte[][] ids = new byte[keys][];
    for (int k = 0; k < keys; k++) {
      StringBuilder id = new StringBuilder("SD");
      for (int c = 0; c < 12; c++) {
        id.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      ids[k] = id.toString().getBytes(StandardCharsets.US_ASCII);
    }
    byte[] block = new byte[BATCH * TEXT];
    int[] starts = new int[BATCH];
    int[] lengths = new int[BATCH];
    long[] times = new long[BATCH];
    long sink = 0;
    for (int round = 0; round < rounds; round++) {
      BytesCounts counts =
          new BytesCounts(MemoryTracker.unbounded("bench"), timed, KeyStateTables.MAX_KEYS);
      long spent = 0;
      for (int done = 0; done < lookups; done += BATCH) {
        for (int i = 0; i < BATCH; i++) { // the keys where a block's texts would hold them
          byte[] id = ids[random.nextInt(keys)];
          starts[i] = i * TEXT + 100;
          lengths[i] = id.length;
          System.arraycopy(id, 0, block, starts[i], id.length);
          times[i] = done + i;
        }
        long start = threads.getCurrentThreadCpuTime();
        sink += counts.addRows(block, starts, lengths, times, BATCH);
        spent += threads.getCurrentThreadCpuTime() - start;
      }
      System.out.printf(
          "round %d: %.1f ms thread CPU, %.1f ns a lookup, %,d keys%n",
          round, spent / 1e6, (double) spent / lookups, counts.size());
    }
    System.out.println("sink " + sink);
  }
}
