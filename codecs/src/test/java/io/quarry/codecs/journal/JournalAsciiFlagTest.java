package io.quarry.codecs.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFieldVisitor;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal records per block whether all its strings are ASCII, so a scan handing {@code _raw}
 * to a regex need not check every byte; journals written before the flag (version 0) are read as
 * before and never claim it.
 */
class JournalAsciiFlagTest {
  /** With 64-byte blocks: the first two events share a block, the third has one of its own. */
  private static final List<String> RAWS =
      List.of(
          "127.0.0.1 - - GET /index.html HTTP/1.1 200",
          "10.0.0.2 GET /caf\u00e9 404",
          "10.0.0.3 POST /login 302");

  @TempDir Path directory;

  @Test
  void aBlockIsAsciiWhenEveryStringInItIs() throws IOException {
    try (FSDirectory fs = FSDirectory.open(directory);
        IndexWriter writer =
            new IndexWriter(
                fs,
                new IndexWriterConfig().setCodec(new QuarryCodec(JournalCompression.ZSTD, 64)))) {
      for (String raw : RAWS) {
        Document document = new Document();
        document.add(new StoredField("_raw", raw));
        writer.addDocument(document);
      }
      writer.forceMerge(1);
    }
    assertThat(read())
        .containsExactly("false " + RAWS.get(0), "false " + RAWS.get(1), "true " + RAWS.get(2));
  }

  /** A version 0 journal (a copy written by Quarry before the flag) reads unchanged. */
  @Test
  void aVersionZeroJournalIsNeverKnownAscii() throws IOException {
    for (String file : List.of("_0.fnm", "_0.qjd", "_0.qjx", "_0.si", "segments_1")) {
      try (InputStream in = getClass().getResourceAsStream("/journal-v0/" + file)) {
        Files.copy(in, directory.resolve(file));
      }
    }
    assertThat(read())
        .containsExactly("false " + RAWS.get(0), "false " + RAWS.get(1), "false " + RAWS.get(2));
  }

  /** Each document's {@code _raw} as "ascii-flag text", through the bytes a scan gets. */
  private List<String> read() throws IOException {
    List<String> seen = new ArrayList<>();
    try (FSDirectory fs = FSDirectory.open(directory);
        DirectoryReader reader = DirectoryReader.open(fs)) {
      assertThat(reader.leaves()).hasSize(1);
      StoredFields fields = reader.leaves().get(0).reader().storedFields();
      for (int doc = 0; doc < reader.maxDoc(); doc++) {
        fields.document(doc, new Recorder(seen));
      }
    }
    return seen;
  }

  private static final class Recorder extends StoredFieldVisitor implements Utf8FieldVisitor {
    private final List<String> seen;

    Recorder(List<String> seen) {
      this.seen = seen;
    }

    @Override
    public Status needsField(FieldInfo fieldInfo) {
      return Status.YES;
    }

    @Override
    public void utf8Field(
        FieldInfo fieldInfo, byte[] bytes, int offset, int length, boolean ascii) {
      seen.add(ascii + " " + new String(bytes, offset, length, StandardCharsets.UTF_8));
    }
  }
}
