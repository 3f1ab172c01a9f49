package io.quarry.benchmarks;

import io.quarry.benchmarks.data.AccessLogGenerator;
import io.quarry.codecs.journal.JournalCompression;
import io.quarry.codecs.journal.QuarryCodec;
import io.quarry.codecs.store.BucketFormat;
import io.quarry.codecs.store.Event;
import io.quarry.codecs.store.EventFields;
import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.IndexOptions;
import io.quarry.codecs.tokens.TermSet;
import io.quarry.codecs.tokens.TermTokenStream;
import io.quarry.codecs.wal.WriteAheadLog;
import io.quarry.server.sourcetype.Sourcetype;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.IOUtils;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The experiment behind issue 23's block-oriented segment format: what indexing a block of events
 * as one Lucene document saves over one document per event, in write time and bytes on disk, on the
 * reference access log ({@link AccessLogGenerator}, seed 42, already timestamped and
 * field-extracted so only the store is measured).
 *
 * <ul>
 *   <li>{@code layout=event}: today's store, {@link EventStore#write} in batches of {@link #BATCH}
 *       events: write-ahead log with fsync, one document per event (about 68 distinct terms, time
 *       point and doc values, host/source/sourcetype and the sourcetype's index-time fields),
 *       journal compression, the index sort's rewrite at flush, background refreshes and merges.
 *   <li>{@code layout=block}: the same write-ahead log, then one document per {@code blockSize}
 *       events in time order: the union of their terms (deduplicated by a {@link TermSet}, each
 *       handed to Lucene once), the union of their keyword and index-time values, the block's time
 *       range as points and one stored field holding the block (times delta-coded, raw texts, the
 *       index-time columns dictionary-coded), compressed by the same journal codec. No index sort:
 *       blocks are written newest-first already.
 * </ul>
 *
 * <p>The score is microseconds per event (single shot over {@link #EVENTS} events, one writing
 * thread); the CPU time per event of the whole JVM (all threads) is printed after each iteration —
 * on a shared machine the steadier figure — and so are the bytes per raw byte and the breakdown by
 * Lucene file type are printed after each iteration. What the block layout leaves out (and the real
 * format must add): per-event verification of term matches on read, exact per-event counts from the
 * index, deletes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx3g"})
public class BlockIndexBenchmark {
  static final int EVENTS = 500_000;
  static final int BATCH = 2_000;
  private static final FieldType TERMS = termsType();

  @Param({"event", "block", "store"})
  public String layout;

  /**
   * How the experimental {@code block} layout builds a block's terms: {@code set} ({@link TermSet},
   * each distinct term handed to Lucene once) or {@code lucene} (Lucene hashing every occurrence in
   * the block's concatenated text, as before the term set).
   */
  @Param({"set"})
  public String terms;

  @Param({"256"})
  public int blockSize;

  /** Events written per invocation; the score's operations per invocation assume the default. */
  @Param({"" + EVENTS})
  public int events = EVENTS;

  private List<Event> dataset;
  private final TermSet termSet = new TermSet(); // the block being written's distinct terms
  private long rawBytes;
  Path directory;

  @Setup(Level.Trial)
  public void generate() {
    AccessLogGenerator generator = new AccessLogGenerator(events, 42);
    Sourcetype access = Sourcetypes.builtIn().forName("access_combined");
    dataset = new ArrayList<>(events);
    int line = 0;
    for (String raw : generator.firstLines(events)) {
      dataset.add(
          new Event(
              generator.timeMicros(line++),
              raw,
              "bench",
              "access.log",
              "access_combined",
              access.indexFields(raw)));
      rawBytes += raw.length() + 1;
    }
  }

  @Setup(Level.Iteration)
  public void open() throws IOException {
    directory = Files.createTempDirectory("quarry-block-bench");
    cpuStarted = processCpuNanos();
  }

  private long cpuStarted;

  /**
   * The CPU time of this whole JVM (every thread: the writer, Lucene's merges and flushes, the
   * store's committer and refresher), which a shared machine's other load does not inflate the way
   * it inflates wall time.
   */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  @TearDown(Level.Iteration)
  public void report() throws IOException {
    System.out.printf(
        "%s: %.1f µs of CPU per event (all threads)%n",
        layout, (processCpuNanos() - cpuStarted) / 1e3 / events);
    System.out.println(storageReport());
    IOUtils.rm(directory);
  }

  /** Bytes on disk per raw byte and by file type, of what the last {@link #write} left. */
  String storageReport() throws IOException {
    Map<String, Long> byType = new TreeMap<>();
    long total = 0;
    try (Stream<Path> files = Files.walk(directory)) {
      // the write-ahead log is not storage: the event layout's is gone after its final commit
      for (Path file :
          files
              .filter(Files::isRegularFile)
              .filter(file -> !directory.relativize(file).toString().contains("wal"))
              .toList()) {
        String name = file.getFileName().toString();
        String type = name.contains(".") ? name.substring(name.lastIndexOf('.') + 1) : name;
        long size = Files.size(file);
        byType.merge(type, size, Long::sum);
        total += size;
      }
    }
    StringBuilder line = new StringBuilder();
    line.append(
        String.format(
            "%s blockSize=%d: %.3f bytes on disk per raw byte (%.1f MB for %.1f MB raw):",
            layout, blockSize, (double) total / rawBytes, total / 1e6, rawBytes / 1e6));
    for (Map.Entry<String, Long> type : byType.entrySet()) {
      if (type.getValue() > total / 200) {
        line.append(String.format(" %s %.1f MB", type.getKey(), type.getValue() / 1e6));
      }
    }
    return line.toString();
  }

  @Benchmark
  @OperationsPerInvocation(EVENTS)
  public void write() throws IOException {
    if (layout.equals("event") || layout.equals("store")) {
      IndexOptions options =
          IndexOptions.builder()
              .format(layout.equals("store") ? BucketFormat.BLOCKS : BucketFormat.EVENTS)
              .build();
      try (EventStore store = EventStore.open(directory, Map.of("main", options))) {
        for (int from = 0; from < dataset.size(); from += BATCH) {
          store.write("main", dataset.subList(from, Math.min(dataset.size(), from + BATCH)));
        }
      }
    } else {
      writeBlocks();
    }
  }

  private void writeBlocks() throws IOException {
    IndexWriterConfig config = new IndexWriterConfig();
    config.setCodec(
        new QuarryCodec(JournalCompression.ZSTD, IndexOptions.DEFAULTS.journalBlockSize()));
    config.setRAMBufferSizeMB(64);
    config.setUseCompoundFile(false); // so the report can break bytes down by file type
    config.getMergePolicy().setNoCFSRatio(0);
    try (WriteAheadLog wal =
            WriteAheadLog.open(
                directory.resolve("wal"), directory.resolve("quarantine"), (seq, batch) -> {});
        FSDirectory index = FSDirectory.open(directory.resolve("index"));
        IndexWriter writer = new IndexWriter(index, config)) {
      long sequence = 0;
      for (int from = 0; from < dataset.size(); from += BATCH) {
        List<Event> batch = dataset.subList(from, Math.min(dataset.size(), from + BATCH));
        wal.sync(wal.append(sequence, batch));
        sequence += batch.size();
        // newest first, as the event layout's index sort orders a segment
        List<Event> ordered = new ArrayList<>(batch);
        ordered.sort((a, b) -> Long.compare(b.timeMicros(), a.timeMicros()));
        for (int start = 0; start < ordered.size(); start += blockSize) {
          writer.addDocument(
              blockDocument(ordered.subList(start, Math.min(ordered.size(), start + blockSize))));
        }
      }
      writer.commit();
    }
  }

  /** One block as a document: union terms for finding it, one stored field for reading it. */
  private Document blockDocument(List<Event> block) {
    Document document = new Document();
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    StringBuilder text = new StringBuilder();
    Set<String> keywords = new LinkedHashSet<>();
    termSet.clear();
    Map<String, Map<String, Integer>> dictionaries = new LinkedHashMap<>();
    for (Event event : block) {
      min = Math.min(min, event.timeMicros());
      max = Math.max(max, event.timeMicros());
      text.append(event.raw()).append('\n');
      if (!terms.equals("lucene")) {
        termSet.add(event.raw());
      }
      keywords.add(EventFields.HOST + '\u0000' + event.host());
      keywords.add(EventFields.SOURCE + '\u0000' + event.source());
      keywords.add(EventFields.SOURCETYPE + '\u0000' + event.sourcetype());
      for (Map.Entry<String, List<String>> field : event.indexedFields().entrySet()) {
        Map<String, Integer> dictionary =
            dictionaries.computeIfAbsent(field.getKey(), k -> new HashMap<>());
        for (String value : field.getValue()) {
          dictionary.putIfAbsent(value, dictionary.size());
        }
      }
    }
    document.add(new LongPoint(EventFields.TIME, min, max));
    document.add(new NumericDocValuesField(EventFields.TIME, max));
    for (String keyword : keywords) {
      int zero = keyword.indexOf('\u0000');
      document.add(
          new StringField(
              EventFields.keywordField(keyword.substring(0, zero)),
              keyword.substring(zero + 1),
              Field.Store.NO));
    }
    for (Map.Entry<String, Map<String, Integer>> field : dictionaries.entrySet()) {
      for (String value : field.getValue().keySet()) {
        document.add(
            new StringField(EventFields.keywordField(field.getKey()), value, Field.Store.NO));
      }
    }
    document.add(
        new Field(
            EventFields.TOKENS,
            this.terms.equals("lucene")
                ? TermTokenStream.of(text.toString())
                : termSet.tokenStream(),
            TERMS));
    document.add(new StoredField("_block", payload(block, max, text, dictionaries)));
    return document;
  }

  /**
   * Times as deltas from the newest, the raw texts, each index-time field as dictionary + codes.
   */
  private static byte[] payload(
      List<Event> block,
      long newest,
      CharSequence text,
      Map<String, Map<String, Integer>> dictionaries) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() + 16 * block.size());
    writeVLong(out, block.size());
    writeVLong(out, newest);
    for (Event event : block) {
      writeVLong(out, newest - event.timeMicros());
    }
    for (Map.Entry<String, Map<String, Integer>> field : dictionaries.entrySet()) {
      writeString(out, field.getKey());
      writeVLong(out, field.getValue().size());
      for (String value : field.getValue().keySet()) {
        writeString(out, value);
      }
      for (Event event : block) {
        List<String> values = event.indexedFields().getOrDefault(field.getKey(), List.of());
        writeVLong(out, values.size());
        for (String value : values) {
          writeVLong(out, field.getValue().get(value));
        }
      }
    }
    out.writeBytes(text.toString().getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  private static void writeString(ByteArrayOutputStream out, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    writeVLong(out, bytes.length);
    out.writeBytes(bytes);
  }

  private static void writeVLong(ByteArrayOutputStream out, long value) {
    while ((value & ~0x7FL) != 0) {
      out.write((int) ((value & 0x7F) | 0x80));
      value >>>= 7;
    }
    out.write((int) value);
  }

  private static FieldType termsType() {
    FieldType type = new FieldType();
    type.setIndexOptions(org.apache.lucene.index.IndexOptions.DOCS);
    type.setTokenized(true);
    type.setOmitNorms(true);
    type.freeze();
    return type;
  }
}
