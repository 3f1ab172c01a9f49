package io.quarry.benchmarks;

import io.quarry.plugin.api.data.Page;
import io.quarry.server.rest.ResultEncoder;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A search result on the wire: {@code rows} rows of the typed columns of {@link AccessRows} ({@code
 * _time}, clientip, status, bytes, method, uri, uri_path, useragent) in pages of 1,024, encoded by
 * {@link ResultEncoder} as each format the search API serves. Score: milliseconds per whole result;
 * the encoded size is printed at setup (MB/s = size / time).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
public class WireBenchmark {
  @Param({"1000000"})
  public int rows;

  @Param({"JSON", "NDJSON", "CSV", "ARROW", "ARROW_ZSTD"})
  public String format;

  private List<Page> pages;

  @Setup(Level.Trial)
  public void build() throws IOException {
    pages = AccessRows.pages(rows);
    System.out.printf("%n%s: %,d rows → %,d bytes%n", format, rows, encode());
  }

  /** Encodes every page and the end of the stream; returns the bytes written. */
  @Benchmark
  public long encode() throws IOException {
    boolean zstd = format.equals("ARROW_ZSTD");
    ResultEncoder.Format wire = ResultEncoder.Format.valueOf(zstd ? "ARROW" : format);
    long bytes = 0;
    try (ResultEncoder encoder = new ResultEncoder(wire, zstd)) {
      for (Page page : pages) {
        bytes += encoder.page(page).length;
      }
      bytes += encoder.finish(List.of()).length;
    }
    return bytes;
  }
}
