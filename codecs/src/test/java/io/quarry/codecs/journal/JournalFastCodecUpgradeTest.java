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
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bucket written before session 35 (fast segments of zstd level 1) and then by a server that
 * writes its fast segments with lz4 (deferred compaction): a natural merge of one of each writes
 * lz4 (the zstd blocks re-encoded, not copied under the wrong codec), the compaction zstd 9, and
 * every text reads back the same at each step.
 */
class JournalFastCodecUpgradeTest {
  @TempDir Path directory;

  @Test
  void aNaturalMergeOfAZstdAndAnLz4FastSegmentAndTheCompactionReadBackTheSameTexts()
      throws IOException {
    List<String> lines = loghub();
    int half = lines.size() / 2;
    try (FSDirectory fs = FSDirectory.open(directory)) {
      // before: deferred fast segments were zstd 1 (the setting's fast codec)
      try (IndexWriter before =
          writer(fs, new QuarryCodec(JournalCompression.ZSTD, 16 * 1024, Long.MAX_VALUE, false))) {
        add(before, lines.subList(0, half));
      }
      assertThat(codecs(fs)).containsExactly(JournalCodec.ZSTD);
      try (IndexWriter after =
          writer(fs, new QuarryCodec(JournalCompression.ZSTD, 16 * 1024, Long.MAX_VALUE, true))) {
        add(after, lines.subList(half, lines.size()));
        after.maybeMerge(); // a natural merge of the two
        after.commit();
        assertThat(codecs(fs)).as("the natural merge's segment").containsExactly(JournalCodec.LZ4);
        assertThat(stored(fs)).isEqualTo(lines);
        add(after, lines.subList(0, 10)); // one more lz4 segment, then the compaction of both
        after.forceMerge(1);
      }
      assertThat(codecs(fs)).containsExactly(JournalCodec.ZSTD);
      List<String> all = new ArrayList<>(lines);
      all.addAll(lines.subList(0, 10));
      assertThat(stored(fs)).isEqualTo(all);
    }
  }

  private static IndexWriter writer(FSDirectory fs, QuarryCodec codec) throws IOException {
    LogDocMergePolicy policy = new LogDocMergePolicy(); // keeps the documents in order
    policy.setMergeFactor(2);
    policy.setMinMergeDocs(1);
    return new IndexWriter(
        fs,
        new IndexWriterConfig()
            .setUseCompoundFile(false)
            .setMergePolicy(policy)
            .setMergeScheduler(new SerialMergeScheduler())
            .setCodec(codec));
  }

  private static void add(IndexWriter writer, List<String> lines) throws IOException {
    for (String line : lines) {
      Document document = new Document();
      document.add(new StoredField("_raw", line));
      writer.addDocument(document);
    }
    writer.commit();
  }

  private static List<JournalCodec> codecs(FSDirectory fs) throws IOException {
    List<JournalCodec> codecs = new ArrayList<>();
    try (DirectoryReader reader = DirectoryReader.open(fs)) {
      for (LeafReaderContext leaf : reader.leaves()) {
        codecs.add(
            ((JournalStoredFieldsReader) ((CodecReader) leaf.reader()).getFieldsReader()).codec());
      }
    }
    return codecs;
  }

  private static List<String> stored(FSDirectory fs) throws IOException {
    List<String> raws = new ArrayList<>();
    try (DirectoryReader reader = DirectoryReader.open(fs)) {
      for (LeafReaderContext leaf : reader.leaves()) {
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
        JournalFastCodecUpgradeTest.class.getResourceAsStream("/loghub/Linux_2k.log")) {
      return new ArrayList<>(
          new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
    }
  }
}
