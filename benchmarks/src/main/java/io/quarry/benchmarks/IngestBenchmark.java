package io.quarry.benchmarks;

import io.quarry.codecs.store.Event;
import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.IndexOptions;
import io.quarry.codecs.tokens.TermTokenStream;
import io.quarry.server.ingest.EventBreaker;
import io.quarry.server.sourcetype.Sourcetype;
import io.quarry.server.sourcetype.SourcetypeSettings;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.TermToBytesRefAttribute;
import org.apache.lucene.util.IOUtils;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The ingest pipeline one stage at a time, over the 2,000 access-log lines of {@code
 * access-sample.log}; every score is in events per second (multiply by the mean line length printed
 * at setup for bytes per second):
 *
 * <ul>
 *   <li>{@code breakLines}: the whole {@code access_combined} pipeline on one 2,000-line body (line
 *       breaking, explicit timestamp, event objects);
 *   <li>{@code timestampExplicit} / {@code timestampAutomatic}: finding {@code _time} with the
 *       sourcetype's format, and by automatic recognition (remembered per source);
 *   <li>{@code indexExtractionRegex}: an index-time regex extraction of two fields;
 *   <li>{@code tokenise}: the term index's token stream, as Lucene consumes it;
 *   <li>{@code storeWrite}: {@code EventStore.write} of 2,000-event batches: write-ahead log with
 *       fsync, Lucene inversion, journal compression (zstd), flushes and merges as they come.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class IngestBenchmark {
  static final int EVENTS = 2000;
  private static final Instant NOW = Instant.parse("2026-01-08T00:00:00Z");

  private String body;
  private byte[] bodyBytes;
  private List<String> lines;
  private Sourcetype access;
  private Sourcetype generic;
  private Sourcetype extracting;
  private Path directory;
  private EventStore store;
  private List<Event> events;

  @Setup(Level.Trial)
  public void load() throws IOException {
    try (InputStream in = IngestBenchmark.class.getResourceAsStream("/access-sample.log")) {
      body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    bodyBytes = body.getBytes(StandardCharsets.UTF_8);
    lines = body.lines().toList();
    access = Sourcetypes.builtIn().forName("access_combined");
    generic = Sourcetypes.builtIn().forName("generic_single_line");
    extracting =
        Sourcetype.from(
            "bench",
            new SourcetypeSettings.Builder()
                .indexExtractions(
                    List.of(
                        new SourcetypeSettings.IndexExtractionSettings(
                            "regex", "\" (?<status>\\d{3}) (?<bytes>\\d+|-)")))
                .build());
    events = new EventBreaker(access, "bench", "bench", NOW).breakEvents(bodyBytes).events();
    System.out.printf(
        "%n%d events, mean %.0f characters%n",
        lines.size(), lines.stream().mapToInt(String::length).average().orElse(0));
  }

  @Setup(Level.Iteration)
  public void openStore() throws IOException {
    directory = Files.createTempDirectory("quarry-ingest-bench");
    store = EventStore.open(directory, Map.of("main", IndexOptions.DEFAULTS));
  }

  @TearDown(Level.Iteration)
  public void closeStore() throws IOException {
    store.close();
    IOUtils.rm(directory);
  }

  @Benchmark
  @OperationsPerInvocation(EVENTS)
  public List<Event> breakLines() {
    return new EventBreaker(access, "bench", "bench", NOW).breakEvents(bodyBytes).events();
  }

  @Benchmark
  @OperationsPerInvocation(EVENTS)
  public void timestampExplicit(Blackhole blackhole) {
    for (String line : lines) {
      blackhole.consume(access.timestamp(line, "bench", Map.of(), NOW));
    }
  }

  @Benchmark
  @OperationsPerInvocation(EVENTS)
  public void timestampAutomatic(Blackhole blackhole) {
    for (String line : lines) {
      blackhole.consume(generic.timestamp(line, "bench", Map.of(), NOW));
    }
  }

  @Benchmark
  @OperationsPerInvocation(EVENTS)
  public void indexExtractionRegex(Blackhole blackhole) {
    for (String line : lines) {
      blackhole.consume(extracting.indexFields(line));
    }
  }

  @Benchmark
  @OperationsPerInvocation(EVENTS)
  public long tokenise() throws IOException {
    long length = 0;
    for (String line : lines) {
      try (TokenStream tokens = TermTokenStream.of(line)) {
        TermToBytesRefAttribute term = tokens.getAttribute(TermToBytesRefAttribute.class);
        tokens.reset();
        while (tokens.incrementToken()) {
          length += term.getBytesRef().length;
        }
        tokens.end();
      }
    }
    return length;
  }

  @Benchmark
  @OperationsPerInvocation(EVENTS)
  public void storeWrite() throws IOException {
    store.write("main", events);
  }
}
