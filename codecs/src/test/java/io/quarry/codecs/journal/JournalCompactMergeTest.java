package io.quarry.codecs.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.codecs.store.IndexOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FlushInfo;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.MergeInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Large merges write compact journal blocks: smaller, and read back the same. */
class JournalCompactMergeTest {
  @TempDir Path directory;

  @Test
  void onlyMergesAtLeastTheThresholdAreCompact() {
    JournalStoredFieldsFormat format =
        new JournalStoredFieldsFormat(JournalCompression.ZSTD, 1024, 1000);
    assertThat(format.compact(IOContext.DEFAULT)).isFalse();
    assertThat(format.compact(IOContext.flush(new FlushInfo(10, 5000)))).isFalse();
    assertThat(format.compact(IOContext.merge(new MergeInfo(10, 999, false, -1)))).isFalse();
    assertThat(format.compact(IOContext.merge(new MergeInfo(10, 1000, false, -1)))).isTrue();
  }

  @Test
  void theCompactLevelSettingIsTheLevelItNamesWithinTheCodecsRange() {
    assertThat(JournalStoredFieldsFormat.compactLevel(null, 9, 1, 22)).isEqualTo(9);
    assertThat(JournalStoredFieldsFormat.compactLevel(" 7", 9, 1, 22)).isEqualTo(7);
    assertThat(JournalStoredFieldsFormat.compactLevel("22", 9, 1, 22)).isEqualTo(22);
    assertThatThrownBy(() -> JournalStoredFieldsFormat.compactLevel("23", 9, 1, 22))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(JournalStoredFieldsFormat.COMPACT_LEVEL_PROPERTY);
    assertThatThrownBy(() -> JournalStoredFieldsFormat.compactLevel("0", 9, 1, 22))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> JournalStoredFieldsFormat.compactLevel("nine", 9, 1, 22))
        .isInstanceOf(NumberFormatException.class);
  }

  @Test
  void compactBlocksAreSmallerAndHoldTheSameEvents() throws IOException {
    List<String> lines = loghub();
    for (JournalCompression compression :
        List.of(JournalCompression.ZSTD, JournalCompression.LZ4)) {
      long fast =
          merged(compression, Long.MAX_VALUE, lines, directory.resolve(compression + "-fast"));
      long compact = merged(compression, 0, lines, directory.resolve(compression + "-compact"));
      assertThat(compact).as(compression.toString()).isLessThan(fast);
    }
  }

  @Test
  void aSettingOfTwoCodecsWritesFastSegmentsWithOneAndCompactOnesWithTheOther() throws IOException {
    List<String> lines = loghub();
    Path fast = directory.resolve("mixed-fast");
    Path compact = directory.resolve("mixed-compact");
    long fastBytes = merged(JournalCompression.ZSTD_LZ4, Long.MAX_VALUE, lines, fast);
    long compactBytes = merged(JournalCompression.ZSTD_LZ4, 0, lines, compact);
    assertThat(codec(fast)).isEqualTo(JournalCodec.ZSTD);
    assertThat(codec(compact)).isEqualTo(JournalCodec.LZ4);
    // each kind written as the one-codec setting writes it: zstd level 1, lz4hc
    assertThat(fastBytes)
        .isEqualTo(merged(JournalCompression.ZSTD, Long.MAX_VALUE, lines, directory.resolve("z")));
    assertThat(compactBytes)
        .isEqualTo(merged(JournalCompression.LZ4, 0, lines, directory.resolve("l")));
  }

  @Test
  void theDefaultWritesFastSegmentsInLz4AndCompactOnesInZstd() throws IOException {
    List<String> lines = loghub();
    Path fast = directory.resolve("default-fast");
    Path compact = directory.resolve("default-compact");
    long fastBytes = merged(JournalCompression.LZ4_ZSTD, Long.MAX_VALUE, lines, fast);
    long compactBytes = merged(JournalCompression.LZ4_ZSTD, 0, lines, compact);
    assertThat(IndexOptions.DEFAULTS.journalCompression()).isEqualTo(JournalCompression.LZ4_ZSTD);
    assertThat(codec(fast)).isEqualTo(JournalCodec.LZ4);
    assertThat(codec(compact)).isEqualTo(JournalCodec.ZSTD);
    // each kind written as the one-codec setting writes it: lz4's fast encoder, zstd 12
    assertThat(fastBytes)
        .isEqualTo(
            merged(JournalCompression.LZ4, Long.MAX_VALUE, lines, directory.resolve("l-fast")));
    assertThat(compactBytes)
        .isEqualTo(merged(JournalCompression.ZSTD, 0, lines, directory.resolve("z-compact")));
  }

  @Test
  void noneZstdStoresFastSegmentsAsTheyAreAndWritesCompactOnesInZstd() throws IOException {
    List<String> lines = loghub();
    Path fast = directory.resolve("none-zstd-fast");
    Path compact = directory.resolve("none-zstd-compact");
    long fastBytes = merged(JournalCompression.NONE_ZSTD, Long.MAX_VALUE, lines, fast);
    long compactBytes = merged(JournalCompression.NONE_ZSTD, 0, lines, compact);
    assertThat(codec(fast)).isEqualTo(JournalCodec.NONE);
    assertThat(codec(compact)).isEqualTo(JournalCodec.ZSTD);
    // each kind written as the one-codec setting writes it: stored as is, zstd 12
    assertThat(fastBytes)
        .isEqualTo(
            merged(JournalCompression.NONE, Long.MAX_VALUE, lines, directory.resolve("n-fast")));
    assertThat(compactBytes)
        .isEqualTo(merged(JournalCompression.ZSTD, 0, lines, directory.resolve("nz-compact")));
    long raw = lines.stream().mapToLong(l -> l.getBytes(StandardCharsets.UTF_8).length).sum();
    assertThat(fastBytes).as("uncompressed: the texts and their lengths").isGreaterThan(raw);
    assertThat(compactBytes).isLessThan(raw / 4);
  }

  @Test
  void deferredCompactionWritesFastSegmentsWithTheSettingsFastCodecAndCompactsThem()
      throws IOException {
    List<String> lines = loghub();
    for (JournalCompression compression :
        List.of(
            JournalCompression.ZSTD,
            JournalCompression.ZSTD_LZ4,
            JournalCompression.LZ4_ZSTD,
            JournalCompression.NONE_ZSTD,
            JournalCompression.NONE)) {
      // the setting's fast codec (zstd 1, lz4, none), then its compact one
      deferredWritesFastAndCompacts(compression, compression.codec(false), lines);
    }
  }

  private void deferredWritesFastAndCompacts(
      JournalCompression compression, JournalCodec fast, List<String> lines) throws IOException {
    Path path = directory.resolve("deferred-" + compression + "-" + fast);
    try (FSDirectory fs = FSDirectory.open(path)) {
      try (IndexWriter writer =
          writtenInTwoFlushes(
              fs, new QuarryCodec(compression, 16 * 1024, Long.MAX_VALUE, true), lines)) {
        writer.commit();
        assertThat(codecs(fs)).as(compression + " flushed").containsOnly(fast).hasSize(2);
        writer.forceMerge(1);
      }
      assertThat(codecs(fs))
          .as(compression + " compacted")
          .containsExactly(compression.codec(true));
      assertThat(stored(fs)).isEqualTo(lines);
    }
  }

  /** The codec each segment of {@code fs} names in its journal, by segment. */
  private static List<JournalCodec> codecs(FSDirectory fs) throws IOException {
    List<JournalCodec> codecs = new ArrayList<>();
    try (DirectoryReader reader = DirectoryReader.open(fs)) {
      for (var leaf : reader.leaves()) {
        codecs.add(
            ((JournalStoredFieldsReader) ((CodecReader) leaf.reader()).getFieldsReader()).codec());
      }
    }
    return codecs;
  }

  /** The {@code _raw} of every document of the one segment of {@code fs}, in order. */
  private static List<String> stored(FSDirectory fs) throws IOException {
    List<String> raws = new ArrayList<>();
    try (DirectoryReader reader = DirectoryReader.open(fs)) {
      StoredFields fields = reader.leaves().get(0).reader().storedFields();
      for (int doc = 0; doc < reader.maxDoc(); doc++) {
        raws.add(fields.document(doc).get("_raw"));
      }
    }
    return raws;
  }

  /** The codec the one segment under {@code path} names in its journal. */
  private static JournalCodec codec(Path path) throws IOException {
    try (FSDirectory fs = FSDirectory.open(path);
        DirectoryReader reader = DirectoryReader.open(fs)) {
      return ((JournalStoredFieldsReader)
              ((CodecReader) reader.leaves().get(0).reader()).getFieldsReader())
          .codec();
    }
  }

  /** A writer that has written {@code lines}, flushing once half way (two segments). */
  private static IndexWriter writtenInTwoFlushes(
      FSDirectory fs, QuarryCodec codec, List<String> lines) throws IOException {
    IndexWriter writer =
        new IndexWriter(
            fs,
            new IndexWriterConfig()
                .setUseCompoundFile(false)
                .setMergePolicy(new LogDocMergePolicy()) // keeps the documents in order
                .setCodec(codec));
    for (int i = 0; i < lines.size(); i++) {
      Document document = new Document();
      document.add(new StoredField("_raw", lines.get(i)));
      writer.addDocument(document);
      if (i == lines.size() / 2) {
        writer.flush();
      }
    }
    return writer;
  }

  /** The journal data bytes after writing {@code lines} in two flushes and merging them to one. */
  private static long merged(
      JournalCompression compression, long compactMergeBytes, List<String> lines, Path path)
      throws IOException {
    try (FSDirectory fs = FSDirectory.open(path)) {
      try (IndexWriter writer =
          writtenInTwoFlushes(
              fs, new QuarryCodec(compression, 16 * 1024, compactMergeBytes), lines)) {
        writer.forceMerge(1);
      }
      try (DirectoryReader reader = DirectoryReader.open(fs)) {
        assertThat(reader.leaves()).hasSize(1);
        StoredFields fields = reader.leaves().get(0).reader().storedFields();
        for (int doc = 0; doc < lines.size(); doc++) {
          assertThat(fields.document(doc).get("_raw")).isEqualTo(lines.get(doc));
        }
      }
      long bytes = 0;
      for (String file : fs.listAll()) {
        if (file.endsWith("." + JournalStoredFieldsFormat.DATA_EXTENSION)) {
          bytes += Files.size(path.resolve(file));
        }
      }
      return bytes;
    }
  }

  private static List<String> loghub() throws IOException {
    try (InputStream in =
        JournalCompactMergeTest.class.getResourceAsStream("/loghub/Linux_2k.log")) {
      return new ArrayList<>(
          new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
    }
  }
}
