package io.quarry.benchmarks;

import io.quarry.codecs.journal.JournalBlock;
import io.quarry.codecs.journal.JournalCompression;
import io.quarry.codecs.journal.JournalStoredFieldsFormat;
import io.quarry.codecs.journal.JournalStoredFieldsReader;
import io.quarry.codecs.journal.QuarryCodec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Journal block decoding per compression mode: one operation decodes every block of a 20,000-event
 * segment of access-log lines and points at each event's {@code _raw}. Throughput in MB/s is {@code
 * ops/s × raw MB} (printed at setup with the compression ratio).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class JournalBenchmark {
  static final int EVENTS = 20_000;

  @Param({"ZSTD", "LZ4", "NONE"})
  public String compression;

  private ByteBuffersDirectory directory;
  private DirectoryReader reader;
  private JournalStoredFieldsReader journal;
  private int rawFieldNumber;
  private final JournalBlock block = new JournalBlock();
  private final BytesRef raw = new BytesRef();

  private List<String> lines;

  @Setup(Level.Trial)
  public void write() throws IOException {
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(
                JournalBenchmark.class.getResourceAsStream("/access-sample.log"),
                StandardCharsets.UTF_8))) {
      lines = in.lines().toList();
    }
    directory = writeSegment();
    reader = DirectoryReader.open(directory);
    CodecReader segment = (CodecReader) reader.leaves().get(0).reader();
    journal = (JournalStoredFieldsReader) segment.getFieldsReader();
    rawFieldNumber = segment.getFieldInfos().fieldInfo("_raw").number;
    System.out.printf(
        "%n%s: %d blocks, %.1f MB raw, %.1f MB compressed (ratio %.2f)%n",
        compression,
        journal.blockCount(),
        journal.rawBytes() / 1e6,
        journal.compressedBytes() / 1e6,
        (double) journal.compressedBytes() / journal.rawBytes());
  }

  /**
   * Encoding: the 20,000 events written and compressed into one segment of a heap directory (the
   * segment's other files are small: the journal is the only stored field).
   */
  @Benchmark
  public ByteBuffersDirectory writeSegment() throws IOException {
    ByteBuffersDirectory written = new ByteBuffersDirectory();
    IndexWriterConfig config = new IndexWriterConfig();
    config.setCodec(
        new QuarryCodec(
            JournalCompression.valueOf(compression), JournalStoredFieldsFormat.DEFAULT_BLOCK_SIZE));
    try (IndexWriter writer = new IndexWriter(written, config)) {
      for (int i = 0; i < EVENTS; i++) {
        Document document = new Document();
        // vary the line so repeats of the 2,000-line sample do not compress unrealistically well
        document.add(new StoredField("_raw", i + " " + lines.get(i % lines.size())));
        writer.addDocument(document);
      }
      writer.forceMerge(1);
    }
    return written;
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    reader.close();
    directory.close();
  }

  @Benchmark
  public long decodeEveryBlock() throws IOException {
    long bytes = 0;
    for (int b = 0; b < journal.blockCount(); b++) {
      journal.decodeBlock(b, block);
      for (int d = 0; d < block.docCount(); d++) {
        if (block.stringField(d, rawFieldNumber, raw)) {
          bytes += raw.length;
        }
      }
    }
    return bytes;
  }
}
