package io.quarry.benchmarks;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.PageReduce;
import io.quarry.ql.exec.PagesSource;
import io.quarry.ql.exec.StageStats;
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
 * The search commands over 200,000 extracted access-log rows, in rows per second: one pipeline
 * (eval, where, stats, sort/top-N, top) over typed pages of 1,024 rows, as the page engine runs the
 * commands after the scan ({@link PageReduce} over results). {@link StatsMapReduceBenchmark} runs
 * {@code stats} split the way batch mode runs it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class OperatorBenchmark {
  static final int ROWS = 200_000;

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

  private List<Page> pages;
  private List<Command> commands;
  private final Evaluator evaluator =
      new Evaluator(Instant.parse("2026-01-08T00:00:00Z"), ZoneOffset.UTC);

  @Setup(Level.Trial)
  public void load() {
    useRows(ROWS);
  }

  /** Loads {@code count} rows and compiles the pipeline (the build's smoke run uses fewer rows). */
  void useRows(int count) {
    pages = AccessRows.pages(count);
    Parser parser = new Parser(CommandRegistry.builtIns());
    List<Command> parsed = parser.parse("* | " + pipeline).commands();
    commands = parsed.subList(1, parsed.size()); // the leading search matches every row
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long pipeline() {
    long[] rows = {0};
    PageReduce reduce =
        PageReduce.overResults(
            commands,
            evaluator,
            page -> {
              rows[0] += page.positionCount();
              return true;
            },
            new StageStats(commands.stream().map(Command::name).toList()),
            0,
            AccessRows.PAGE_SIZE);
    try {
      reduce.pullFrom(PagesSource.of(pages.iterator()));
      reduce.run();
    } finally {
      reduce.close();
    }
    return rows[0];
  }
}
