package io.quarry.benchmarks;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.exec.Evaluator;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code stats count, avg(bytes) by clientip} the way batch mode runs it, in rows per second: eight
 * partials ({@link PageAggregator#newPartial}), each fed an eighth of the pages of 200,000
 * extracted access-log rows, merged into the final aggregation, which emits the answer.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class StatsMapReduceBenchmark {
  static final int ROWS = 200_000;
  static final int PARTIALS = 8;
  static final String STATS = "stats count, avg(bytes) by clientip";

  private List<Page> pages;
  private Command stats;
  private final Evaluator evaluator =
      new Evaluator(Instant.parse("2026-01-08T00:00:00Z"), ZoneOffset.UTC);

  @Setup(Level.Trial)
  public void load() {
    useRows(ROWS);
  }

  /** Loads {@code count} rows (the build's smoke run uses fewer). */
  void useRows(int count) {
    pages = AccessRows.pages(count);
    stats = new Parser(CommandRegistry.builtIns()).parse("* | " + STATS).commands().get(1);
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long statsMapReduce() {
    PageAggregator last = PageAggregator.of(stats, evaluator, AccessRows.PAGE_SIZE);
    int share = (pages.size() + PARTIALS - 1) / PARTIALS;
    for (int p = 0; p < PARTIALS; p++) {
      PageAggregator partial = last.newPartial();
      for (Page page :
          pages.subList(
              Math.min(pages.size(), p * share), Math.min(pages.size(), (p + 1) * share))) {
        partial.addInput(page);
      }
      last.merge(partial);
      partial.close();
    }
    last.finish();
    long rows = 0;
    for (Page page = last.getOutput(); page != null; page = last.getOutput()) {
      rows += page.positionCount();
    }
    last.close();
    return rows;
  }
}
