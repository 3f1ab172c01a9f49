package io.quarry.benchmarks;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.Command;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.ql.parser.Parser;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
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
 * {@code timechart}, {@code chart} and {@code top} as page aggregations ({@link PageAggregator}),
 * in rows per second, fed 2^20 access-log-like rows (a minute apart every 64 rows, one of 8
 * statuses, 4 methods and 5,000 client addresses, a byte count) already made as pages of 1,024, so
 * the figure is the operator's alone, not the scan's. Run with {@code -prof gc} for the bytes per
 * row.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ChartTopBenchmark {
  static final int ROWS = 1 << 20;
  static final int PAGE = 1024;

  @Param({
    "timechart span=1h avg(bytes) by status",
    "chart count over method by status",
    "top clientip"
  })
  public String command;

  private final List<Page> pages = new ArrayList<>();
  private Command parsed;

  @Setup(Level.Trial)
  public void load() {
    useRows(ROWS);
  }

  /** Builds {@code count} rows (the build's smoke run uses fewer). */
  void useRows(int count) {
    parsed = new Parser(CommandRegistry.builtIns()).parse("* | " + command).commands().get(1);
    String[] statuses = {"200", "200", "200", "304", "404", "500", "503", "301"};
    String[] methods = {"GET", "GET", "POST", "HEAD"};
    Schema schema =
        new Schema(
            List.of(
                new Schema.Column("_time", DataType.TIMESTAMP),
                new Schema.Column("status", DataType.STRING),
                new Schema.Column("method", DataType.STRING),
                new Schema.Column("clientip", DataType.STRING),
                new Schema.Column("bytes", DataType.STRING)));
    SplittableRandom random = new SplittableRandom(42);
    pages.clear();
    long time = 1_767_744_000_000_000L;
    for (int start = 0; start < count; start += PAGE) {
      int n = Math.min(PAGE, count - start);
      LongBlock.Builder times = LongBlock.builder(DataType.TIMESTAMP, n);
      BytesBlock.Builder status = BytesBlock.builder(n);
      BytesBlock.Builder method = BytesBlock.builder(n);
      BytesBlock.Builder client = BytesBlock.builder(n);
      BytesBlock.Builder bytes = BytesBlock.builder(n);
      for (int p = 0; p < n; p++) {
        if ((start + p) % 64 == 0) {
          time += 60_000_000L;
        }
        String s = statuses[random.nextInt(statuses.length)];
        String m = methods[random.nextInt(methods.length)];
        String c = "10.0." + random.nextInt(50) + "." + random.nextInt(100);
        String b = Integer.toString(random.nextInt(5000));
        times.append(time);
        status.append(s.getBytes(StandardCharsets.US_ASCII));
        method.append(m.getBytes(StandardCharsets.US_ASCII));
        client.append(c.getBytes(StandardCharsets.US_ASCII));
        bytes.append(b.getBytes(StandardCharsets.US_ASCII));
      }
      pages.add(
          new Page(
              schema,
              List.<Block>of(
                  times.build(), status.build(), method.build(), client.build(), bytes.build())));
    }
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public int pages() {
    PageAggregator operator =
        PageAggregator.of(parsed, ZoneOffset.UTC, MemoryTracker.unbounded("bench"), PAGE);
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
