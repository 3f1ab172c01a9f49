package io.quarry.codecs.store;

import io.quarry.benchmarks.data.AccessLogGenerator;
import io.quarry.codecs.journal.QuarryCodec;
import io.quarry.codecs.tokens.TermSet;
import io.quarry.server.sourcetype.Sourcetype;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The block writer alone (issue 23): {@link BlockDocuments} making the documents of {@link #EVENTS}
 * reference access-log lines ({@link AccessLogGenerator}, seed 42, with {@code access_combined}'s
 * index-time fields, in blocks of {@link IndexOptions#DEFAULT_BLOCK_EVENTS}), without the
 * write-ahead log, the per-event check or the breaker. In the store's package (of the benchmarks
 * module) since the writer is package-private.
 *
 * <ul>
 *   <li>{@code stage=document}: the documents only ({@code BlockDocuments.document}: the term set,
 *       keywords, columns, value counts and codes, the payload); the {@code _tok} token stream is
 *       made but not consumed;
 *   <li>{@code stage=index}: each document also added to a Lucene writer over memory with the
 *       store's codec (the {@code _tok} inversion, the journal's compression), flushed at the end.
 * </ul>
 *
 * The score is microseconds per event; {@code -prof gc} or async-profiler ({@code -prof
 * async:libPath=...}) beside it tells where they go. On a loaded machine wall time is noise: {@link
 * #main} runs the stage round after round on one thread and prints the thread's CPU time per event
 * (least and median over the rounds after the first few).
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.quarry.codecs.store.BlockWriterBenchmark [stage] [rounds]
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g"})
public class BlockWriterBenchmark {
  static final int EVENTS = 100 * IndexOptions.DEFAULT_BLOCK_EVENTS;

  @Param({"document", "index"})
  public String stage;

  private final List<List<Event>> blocks = new ArrayList<>();
  private final BlockDocuments writer = new BlockDocuments(IndexOptions.DEFAULTS);
  private final TermSet terms = new TermSet();

  @Setup
  public void generate() {
    AccessLogGenerator generator = new AccessLogGenerator(EVENTS, 42);
    Sourcetype access = Sourcetypes.builtIn().forName("access_combined");
    List<String> lines = generator.firstLines(EVENTS);
    int per = IndexOptions.DEFAULT_BLOCK_EVENTS;
    for (int from = 0; from < EVENTS; from += per) {
      List<Event> block = new ArrayList<>(per);
      for (int i = per - 1; i >= 0; i--) { // newest first, as a block is written
        String raw = lines.get(from + i);
        // as the breaker hands it: the text's ASCII bytes held, its String not made
        byte[] ascii = AsciiText.bytesOf(raw);
        block.add(
            Event.ofAscii(
                generator.timeMicros(from + i),
                ascii,
                0,
                ascii.length,
                null,
                "bench",
                "access.log",
                "access_combined",
                access.indexFields(raw)));
      }
      blocks.add(block);
    }
  }

  @Benchmark
  @OperationsPerInvocation(EVENTS)
  public void write(Blackhole hole) throws IOException {
    if (stage.equals("document")) {
      for (int b = 0; b < blocks.size(); b++) {
        hole.consume(document(b));
      }
      return;
    }
    IndexWriterConfig config = new IndexWriterConfig();
    config.setCodec(
        new QuarryCodec(
            IndexOptions.DEFAULTS.journalCompression(), IndexOptions.DEFAULTS.journalBlockSize()));
    config.setRAMBufferSizeMB(64);
    try (ByteBuffersDirectory directory = new ByteBuffersDirectory();
        IndexWriter index = new IndexWriter(directory, config)) {
      for (int b = 0; b < blocks.size(); b++) {
        index.addDocument(document(b));
      }
      index.commit();
    }
  }

  public static void main(String[] args) throws IOException {
    BlockWriterBenchmark benchmark = new BlockWriterBenchmark();
    benchmark.stage = args.length > 0 ? args[0] : "document";
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    benchmark.generate();
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    Blackhole hole =
        new Blackhole(
            "Today's password is swordfish. I understand instantiating Blackholes directly is"
                + " dangerous.");
    int warm = Math.min(5, rounds / 2);
    double[] perEvent = new double[rounds - warm];
    for (int round = 0; round < rounds; round++) {
      long cpu = threads.getCurrentThreadCpuTime();
      benchmark.write(hole);
      if (round >= warm) {
        perEvent[round - warm] = (threads.getCurrentThreadCpuTime() - cpu) / (double) EVENTS;
      }
    }
    java.util.Arrays.sort(perEvent);
    System.out.printf(
        "%s: thread CPU per event, least %.0f ns, median %.0f ns (%d rounds)%n",
        benchmark.stage, perEvent[0], perEvent[perEvent.length / 2], perEvent.length);
  }

  private Document document(int b) {
    return writer.document(blocks.get(b), (long) b << 10, terms, false);
  }
}
