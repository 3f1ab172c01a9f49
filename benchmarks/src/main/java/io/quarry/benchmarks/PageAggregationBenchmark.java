package io.quarry.benchmarks;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.ql.parser.Parser;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The page engine's {@code stats range(_time), count by JSESSIONID} — the end-to-end suite's {@code
 * sessions_range} without the scan — in rows per second: pages of 1,024 rows whose key is one of
 * {@code groups} 14-byte session ids in random order (sessions interleave in time, so each row's
 * group is a likely cache miss once the groups outgrow the caches), one partial fed every page,
 * then finished. Isolates the hash table and the function states from decoding and extraction.
 * {@code by=JSESSIONID,host} groups by the session and its host (one of four, fixed per session: as
 * many groups, a composite key of two values). {@code by=method,status} groups by two columns in
 * dictionary form whose dictionaries every page shares (as a scan's ordinal columns are: 4 × 8
 * combinations, {@code EntryGroups}). {@code stats=minmax} answers {@code min} and {@code max} of
 * {@code bytes}, numbers held as text (as extracted), in place of {@code range(_time)}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PageAggregationBenchmark {
  static final int ROWS = 1 << 20;
  static final int PAGE = 1024;
  static final String STATS = "stats range(_time) AS duration, count by ";
  static final String MIN_MAX = "stats min(bytes) AS lo, max(bytes) AS hi, count by ";

  @Param({"200000", "5000"})
  public int groups;

  @Param({"JSESSIONID", "JSESSIONID,host", "method,status"})
  public String by;

  @Param({"range", "minmax"})
  public String stats;

  /**
   * {@code dictionary}: the session column as ordinals of one dictionary of every session id,
   * sorted, shared by every page (as a segment's indexed keyword column reads: the {@code
   * sessions_range_indexed} layout, grouped by entry); {@code plain}: bytes per page.
   */
  @Param({"plain"})
  public String keys;

  private final List<Page> pages = new ArrayList<>();
  private StatsCommand command;

  @Setup(Level.Trial)
  public void load() {
    useRows(ROWS);
  }

  /** Builds {@code rows} rows (the build's smoke run uses fewer). */
  void useRows(int rows) {
    command =
        (StatsCommand)
            new Parser(CommandRegistry.builtIns())
                .parse("* | " + ("minmax".equals(stats) ? MIN_MAX : STATS) + by.replace(",", ", "))
                .commands()
                .get(1);
    byte[][] ids = new byte[groups][];
    byte[][] hosts = new byte[4][];
    for (int h = 0; h < hosts.length; h++) {
      hosts[h] = ("www" + h).getBytes(StandardCharsets.US_ASCII);
    }
    SplittableRandom random = new SplittableRandom(42);
    for (int g = 0; g < groups; g++) {
      ids[g] = String.format("SD%dSL%09dX", g % 10, g).getBytes(StandardCharsets.US_ASCII);
    }
    Schema schema =
        new Schema(
            List.of(
                new Schema.Column("_time", DataType.TIMESTAMP),
                new Schema.Column("JSESSIONID", DataType.STRING),
                new Schema.Column("host", DataType.STRING),
                new Schema.Column("bytes", DataType.STRING),
                new Schema.Column("method", DataType.STRING),
                new Schema.Column("status", DataType.STRING)));
    // a segment's dictionary is sorted by bytes: entry[g] is session g's place in it
    byte[][] sorted = ids.clone();
    java.util.Arrays.sort(sorted, java.util.Arrays::compare);
    int[] entry = new int[groups];
    for (int g = 0; g < groups; g++) {
      entry[g] = java.util.Arrays.binarySearch(sorted, ids[g], java.util.Arrays::compare);
    }
    BytesBlock sessions = "dictionary".equals(keys) ? dictionary(sorted) : null;
    BytesBlock methods = dictionary("GET", "POST", "PUT", "DELETE");
    BytesBlock statuses = dictionary("200", "201", "204", "301", "304", "404", "500", "503");
    pages.clear();
    long time = 1_767_744_000_000_000L;
    for (int start = 0; start < rows; start += PAGE) {
      int count = Math.min(PAGE, rows - start);
      LongBlock.Builder times = LongBlock.builder(DataType.TIMESTAMP, count);
      BytesBlock.Builder keys = BytesBlock.builder(count);
      BytesBlock.OrdinalBuilder sessionKeys =
          sessions == null ? null : BytesBlock.ordinalBuilder(sessions, count);
      BytesBlock.Builder hostKeys = BytesBlock.builder(count);
      BytesBlock.Builder sizes = BytesBlock.builder(count);
      BytesBlock.OrdinalBuilder methodKeys = BytesBlock.ordinalBuilder(methods, count);
      BytesBlock.OrdinalBuilder statusKeys = BytesBlock.ordinalBuilder(statuses, count);
      for (int p = 0; p < count; p++) {
        times.append(time += 8_640);
        int session = random.nextInt(groups);
        keys.append(ids[session]);
        if (sessionKeys != null) {
          sessionKeys.appendOrdinal(entry[session]);
        }
        hostKeys.append(hosts[session % hosts.length]);
        sizes.append(Integer.toString(random.nextInt(100_000)).getBytes(StandardCharsets.US_ASCII));
        methodKeys.appendOrdinal(random.nextInt(methods.positionCount()));
        statusKeys.appendOrdinal(random.nextInt(statuses.positionCount()));
      }
      pages.add(
          new Page(
              schema,
              List.<Block>of(
                  times.build(),
                  sessionKeys == null ? keys.build() : sessionKeys.build(),
                  hostKeys.build(),
                  sizes.build(),
                  methodKeys.build(),
                  statusKeys.build())));
    }
  }

  private static BytesBlock dictionary(String... entries) {
    byte[][] bytes = new byte[entries.length][];
    for (int e = 0; e < entries.length; e++) {
      bytes[e] = entries[e].getBytes(StandardCharsets.US_ASCII);
    }
    return dictionary(bytes);
  }

  private static BytesBlock dictionary(byte[][] entries) {
    BytesBlock.Builder builder = BytesBlock.builder(entries.length);
    for (byte[] entry : entries) {
      builder.append(entry);
    }
    return builder.build();
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public int aggregate() {
    HashAggregationOperator operator =
        new HashAggregationOperator(command, MemoryTracker.unbounded("stats"), PAGE);
    for (Page page : pages) {
      operator.addInput(page);
    }
    operator.finish();
    int out = 0;
    for (Page page = operator.getOutput(); page != null; page = operator.getOutput()) {
      out += page.positionCount();
    }
    operator.close();
    return out;
  }
}
