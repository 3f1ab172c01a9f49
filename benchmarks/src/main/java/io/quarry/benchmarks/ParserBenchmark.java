package io.quarry.benchmarks;

import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import io.quarry.ql.plan.SearchPlanner;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Parse and plan of typical queries, in microseconds: the fixed cost every search pays. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ParserBenchmark {
  @Param({
    "index=web status>=500 earliest=-24h | stats count by clientip | head 10",
    "index=main sourcetype=linux_secure \"Failed password\" NOT root (sshd OR pam) | stats count, dc(rhost) by host",
    "error"
  })
  public String query;

  private final Parser parser = new Parser(CommandRegistry.builtIns());
  private final SearchPlanner planner =
      new SearchPlanner(Instant.parse("2026-01-07T12:00:00Z"), ZoneOffset.UTC);

  @Benchmark
  public Object parseAndPlan() {
    return planner.plan(parser.parse(query), Long.MIN_VALUE, Long.MAX_VALUE);
  }
}
