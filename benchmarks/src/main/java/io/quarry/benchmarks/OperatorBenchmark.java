package io.quarry.benchmarks;

import io.quarry.ql.ast.Command;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.exec.Aggregator;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.Pipelines;
import io.quarry.ql.exec.Row;
import io.quarry.ql.exec.RowSink;
import io.quarry.ql.parser.Parser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
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
 * The search operators over 200,000 extracted access-log rows, in rows per second: {@code pipeline}
 * runs one pipeline (eval, where, stats, sort/top-N, top) over all rows; {@code statsMapReduce}
 * runs {@code stats} the way batch mode does — eight partials, each fed an eighth of the rows,
 * merged into the final operator.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class OperatorBenchmark {
  static final int ROWS = 200_000;
  static final int PARTIALS = 8;

  @Param({
    "eval kb=round(bytes/1024, 2), class=if(status>=500, \"error\", \"ok\")",
    "where status>=400 AND method=\"POST\"",
    "stats count, avg(bytes), dc(clientip) by status",
    "stats count by clientip",
    "sort 10 -bytes",
    "sort -bytes",
    "top limit=10 uri_path"
  })
  public String pipeline;

  private List<Row> rows;
  private List<Command> commands;
  private Command stats;
  private final Evaluator evaluator =
      new Evaluator(Instant.parse("2026-01-08T00:00:00Z"), ZoneOffset.UTC);

  @Setup(Level.Trial)
  public void load() {
    useRows(ROWS);
  }

  /** Loads {@code count} rows and compiles the pipeline (the build's smoke run uses fewer rows). */
  void useRows(int count) {
    rows = AccessRows.rows(count);
    Parser parser = new Parser(CommandRegistry.builtIns());
    List<Command> parsed = parser.parse("* | " + pipeline).commands();
    commands = parsed.subList(1, parsed.size()); // the leading search matches every row
    stats = parser.parse("* | stats count, avg(bytes) by clientip").commands().get(1);
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long pipeline() {
    Counter end = new Counter();
    RowSink head = Pipelines.build(commands, end, evaluator);
    for (Row row : rows) {
      if (!head.accept(row)) {
        break;
      }
    }
    head.finish();
    return end.rows;
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long statsMapReduce() {
    Counter end = new Counter();
    Aggregator fin = (Aggregator) Pipelines.operator(stats, end, evaluator);
    int share = (rows.size() + PARTIALS - 1) / PARTIALS;
    for (int p = 0; p < PARTIALS; p++) {
      Aggregator partial = fin.newPartial();
      for (Row row : rows.subList(p * share, Math.min(rows.size(), (p + 1) * share))) {
        partial.accept(row);
      }
      fin.merge(partial);
    }
    fin.finish();
    return end.rows;
  }

  private static final class Counter implements RowSink {
    long rows;

    @Override
    public boolean accept(Row row) {
      rows++;
      return true;
    }

    @Override
    public void finish() {}
  }
}
