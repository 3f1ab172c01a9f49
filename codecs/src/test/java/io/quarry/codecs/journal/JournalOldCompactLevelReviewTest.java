package io.quarry.codecs.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review a42 (lane zscan): a store written before a change of the zstd compact level holds compact
 * segments whose data files record the old level (9 up to session 41). A small merge of two such
 * segments must stay compact, as it did when they were written, not write every block again as a
 * fast (lz4) block that the compaction then rewrites once more; a compact one (a roll, a large
 * merge) copied their blocks on main rather than decoding and re-encoding every one. The segments
 * here are written with this build's compact level, and their recorded level set to 9 (footer
 * checksum fixed), as main's writer leaves them: on main a no-op.
 */
class JournalOldCompactLevelReviewTest {
  private static final int OLD_COMPACT_LEVEL = 9; // JournalCodec.ZSTD's compact level to session 41
  private static final int BLOCK_SIZE = 1024;

  @TempDir Path directory;

  @Test
  void aSmallMergeOfCompactSegmentsOfTheOldLevelStaysCompact() throws IOException {
    Merged merged = mergeOldCompactSegments(Long.MAX_VALUE);
    assertThat(merged.compact())
        .as("a merge of compact segments (zstd %d) is compact", OLD_COMPACT_LEVEL)
        .isTrue();
    assertThat(merged.codec()).isEqualTo(JournalCodec.ZSTD);
  }

  /** What a merge wrote: whether compact, its codec, how many blocks it decoded. */
  private record Merged(boolean compact, JournalCodec codec, long decoded) {}

  private Merged mergeOldCompactSegments(long compactMergeBytes) throws IOException {
    List<String> events = events(40);
    // two compact segments: every merge compact while they are written
    try (FSDirectory fs = FSDirectory.open(directory);
        IndexWriter writer = new IndexWriter(fs, config(0))) {
      add(writer, events.subList(0, 10));
      add(writer, events.subList(10, 20));
      writer.forceMerge(1); // compact A
      add(writer, events.subList(20, 30));
      add(writer, events.subList(30, 40));
      writer.forceMerge(2); // LogDocMergePolicy merges the two small ones: compact B
      writer.commit();
    }
    List<Path> data = new ArrayList<>();
    try (FSDirectory fs = FSDirectory.open(directory);
        DirectoryReader reader = DirectoryReader.open(fs)) {
      assertThat(reader.leaves()).hasSize(2);
      for (LeafReaderContext leaf : reader.leaves()) {
        SegmentReader segment = (SegmentReader) leaf.reader();
        assertThat(JournalStoredFieldsFormat.isCompact(segment.getSegmentInfo().info)).isTrue();
        JournalStoredFieldsReader journal = (JournalStoredFieldsReader) segment.getFieldsReader();
        assertThat(journal.codec()).isEqualTo(JournalCodec.ZSTD);
        data.add(
            directory.resolve(
                segment.getSegmentName() + "." + JournalStoredFieldsFormat.DATA_EXTENSION));
      }
    }
    for (Path file : data) {
      recordLevel(file, OLD_COMPACT_LEVEL); // as main's writer recorded it
    }

    // a merge of the two: compact by its size or not (compactMergeBytes)
    try (FSDirectory fs = FSDirectory.open(directory);
        IndexWriter writer = new IndexWriter(fs, config(compactMergeBytes))) {
      long before = JournalReads.read()[0];
      writer.forceMerge(1);
      long decoded = JournalReads.read()[0] - before;
      writer.commit();
      try (DirectoryReader reader = DirectoryReader.open(fs)) {
        SegmentReader merged = (SegmentReader) reader.leaves().get(0).reader();
        JournalStoredFieldsReader journal = (JournalStoredFieldsReader) merged.getFieldsReader();
        StoredFields fields = merged.storedFields();
        List<String> read = new ArrayList<>();
        for (int doc = 0; doc < merged.maxDoc(); doc++) {
          read.add(fields.document(doc).get("_raw"));
        }
        assertThat(read).containsExactlyElementsOf(events);
        merged.checkIntegrity();
        return new Merged(
            JournalStoredFieldsFormat.isCompact(merged.getSegmentInfo().info),
            journal.codec(),
            decoded);
      }
    }
  }

  private static IndexWriterConfig config(long compactMergeBytes) {
    IndexWriterConfig config =
        new IndexWriterConfig()
            .setUseCompoundFile(false)
            .setMergePolicy(new LogDocMergePolicy())
            .setMergeScheduler(new SerialMergeScheduler())
            .setCodec(new QuarryCodec(JournalCompression.LZ4_ZSTD, BLOCK_SIZE, compactMergeBytes));
    config.getMergePolicy().setNoCFSRatio(0);
    return config;
  }

  private static void add(IndexWriter writer, List<String> events) throws IOException {
    for (String event : events) {
      Document document = new Document();
      document.add(new StoredField("_raw", event));
      writer.addDocument(document);
    }
    writer.flush();
  }

  /** Events of 1-3 KiB, each filling a block alone (every block copyable). */
  private static List<String> events(int count) {
    Random random = new Random(42);
    List<String> events = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      StringBuilder event = new StringBuilder();
      int size = BLOCK_SIZE + (i * 397) % (2 * BLOCK_SIZE);
      while (event.length() < size) {
        event
            .append("2026-01-07T10:00:")
            .append(random.nextInt(60))
            .append(" host=h")
            .append(random.nextInt(20))
            .append(" took=")
            .append(random.nextInt(1000))
            .append(" user=u")
            .append(random.nextInt(300))
            .append('\n');
      }
      events.add(event.toString());
    }
    return events;
  }

  /** Sets the level a journal data file records (after its header and codec id), footer fixed. */
  private static void recordLevel(Path file, int level) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    int at = CodecUtil.indexHeaderLength(JournalStoredFieldsFormat.DATA_CODEC, "") + 1;
    bytes[at] = (byte) level;
    CRC32 crc = new CRC32();
    crc.update(bytes, 0, bytes.length - Long.BYTES);
    ByteBuffer.wrap(bytes, bytes.length - Long.BYTES, Long.BYTES).putLong(crc.getValue());
    Files.write(file, bytes);
  }
}
