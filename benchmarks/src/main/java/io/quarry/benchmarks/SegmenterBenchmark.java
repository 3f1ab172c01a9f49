package io.quarry.benchmarks;

import io.quarry.codecs.tokens.Segmenter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Index-time tokenisation of access-log lines from the reference generator: the per-event cost of
 * building the term index. Reports lines per second; multiply by the mean line length (printed at
 * setup) for bytes per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SegmenterBenchmark {
  private List<String> lines;

  @Setup
  public void load() throws IOException {
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(
                SegmenterBenchmark.class.getResourceAsStream("/access-sample.log"),
                StandardCharsets.UTF_8))) {
      lines = reader.lines().toList();
    }
    double meanLength = lines.stream().mapToInt(String::length).average().orElse(0);
    System.out.printf("%n%d lines, mean %.0f characters%n", lines.size(), meanLength);
  }

  @Benchmark
  @org.openjdk.jmh.annotations.OperationsPerInvocation(1000)
  public void termsOfThousandLines(Blackhole blackhole) {
    for (int i = 0; i < 1000; i++) {
      blackhole.consume(Segmenter.terms(lines.get(i)));
    }
  }
}
