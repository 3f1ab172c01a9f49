package io.quarry.codecs.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index written under one setting and opened under another: its segments read as written, new
 * flushes are the new setting's fast codec beside them, and merges of both kinds read either codec
 * and write the new setting's. The default before session 40 ({@link JournalCompression#ZSTD}: zstd
 * 1 for fast segments) under today's ({@link JournalCompression#LZ4_ZSTD}: lz4 fast, zstd compact);
 * today's under {@link JournalCompression#NONE_ZSTD} (session 47: uncompressed fast segments, zstd
 * compact) and back.
 */
class JournalSettingChangeTest {
  @TempDir Path directory;

  @Test
  void zstdSegmentsOfTheOldDefaultReadAndMergeUnderTheNewOne() throws IOException {
    readsAndMergesAfterTheChange(JournalCompression.ZSTD, JournalCompression.LZ4_ZSTD);
  }

  @Test
  void lz4SegmentsReadAndMergeUnderNoneZstd() throws IOException {
    readsAndMergesAfterTheChange(JournalCompression.LZ4_ZSTD, JournalCompression.NONE_ZSTD);
  }

  @Test
  void uncompressedSegmentsReadAndMergeUnderLz4Zstd() throws IOException {
    readsAndMergesAfterTheChange(JournalCompression.NONE_ZSTD, JournalCompression.LZ4_ZSTD);
  }

  /**
   * Half the lines flushed under {@code before} (fast segments), the other half under {@code
   * after}, then merged to one segment by a fast merge and by a compact one.
   */
  private void readsAndMergesAfterTheChange(JournalCompression before, JournalCompression after)
      throws IOException {
    List<String> lines = loghub();
    int half = lines.size() / 2;
    JournalCodec old = before.codec(false);
    JournalCodec fresh = after.codec(false);
    assertThat(old).as("the setting changes the fast codec").isNotEqualTo(fresh);
    for (boolean compact : new boolean[] {false, true}) {
      try (FSDirectory fs =
          FSDirectory.open(directory.resolve(before + "-" + after + "-compact-" + compact))) {
        try (IndexWriter writer = writer(fs, before, Long.MAX_VALUE)) {
          add(writer, lines.subList(0, half));
        }
        assertThat(codecs(fs)).containsExactly(old);
        try (IndexWriter current = writer(fs, after, compact ? 0 : Long.MAX_VALUE)) {
          add(current, lines.subList(half, lines.size()));
          current.commit();
          assertThat(codecs(fs)).containsExactly(old, fresh);
          assertThat(stored(fs)).isEqualTo(lines);
          current.forceMerge(1);
        }
        assertThat(codecs(fs)).containsExactly(after.codec(compact));
        assertThat(stored(fs)).isEqualTo(lines);
      }
    }
  }

  private static IndexWriter writer(
      FSDirectory fs, JournalCompression compression, long compactMergeBytes) throws IOException {
    return new IndexWriter(
        fs,
        new IndexWriterConfig()
            .setUseCompoundFile(false)
            .setMergePolicy(new LogDocMergePolicy()) // keeps the documents in order
            .setCodec(new QuarryCodec(compression, 16 * 1024, compactMergeBytes)));
  }

  private static void add(IndexWriter writer, List<String> lines) throws IOException {
    for (String line : lines) {
      Document document = new Document();
      document.add(new StoredField("_raw", line));
      writer.addDocument(document);
    }
    writer.commit();
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

  /** The {@code _raw} of every document of {@code fs}, segment by segment, in order. */
  private static List<String> stored(FSDirectory fs) throws IOException {
    List<String> raws = new ArrayList<>();
    try (DirectoryReader reader = DirectoryReader.open(fs)) {
      for (var leaf : reader.leaves()) {
        StoredFields fields = leaf.reader().storedFields();
        for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
          raws.add(fields.document(doc).get("_raw"));
        }
      }
    }
    return raws;
  }

  private static List<String> loghub() throws IOException {
    try (InputStream in =
        JournalSettingChangeTest.class.getResourceAsStream("/loghub/Linux_2k.log")) {
      return new ArrayList<>(
          new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
    }
  }
}
