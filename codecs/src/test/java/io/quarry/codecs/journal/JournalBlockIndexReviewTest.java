package io.quarry.codecs.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review (session 44): the block index file's checks, now {@link JournalBlockIndex#read}, on a real
 * directory: a segment of three documents in 64-byte blocks reads back whole; a byte of an entry
 * changed fails the footer's checksum; a document count that disagrees with the blocks' (the file
 * otherwise well formed, its footer recomputed) is refused; a truncated file is refused. Each
 * refusal a {@link CorruptIndexException} when the segment is opened, nothing read from it.
 */
class JournalBlockIndexReviewTest {
  private static final List<String> RAWS =
      List.of(
          "127.0.0.1 - - GET /index.html HTTP/1.1 200",
          "10.0.0.2 GET /cafe 404",
          "10.0.0.3 POST /login 302");
  private static final int FOOTER = CodecUtil.footerLength();

  @TempDir Path directory;
  private Path index;

  @BeforeEach
  void write() throws IOException {
    IndexWriterConfig config =
        new IndexWriterConfig()
            .setCodec(new QuarryCodec(JournalCompression.ZSTD, 64))
            .setUseCompoundFile(false); // the .qjx a file of its own
    config.getMergePolicy().setNoCFSRatio(0.0);
    try (FSDirectory fs = FSDirectory.open(directory);
        IndexWriter writer = new IndexWriter(fs, config)) {
      for (String raw : RAWS) {
        Document document = new Document();
        document.add(new StoredField("_raw", raw));
        writer.addDocument(document);
      }
      writer.forceMerge(1);
    }
    try (var files = Files.list(directory)) {
      List<Path> indexes = files.filter(f -> f.getFileName().toString().endsWith(".qjx")).toList();
      assertThat(indexes).hasSize(1);
      index = indexes.get(0);
    }
  }

  @Test
  void aWellFormedIndexReadsEveryDocument() throws IOException {
    assertThat(read()).isEqualTo(RAWS);
  }

  @Test
  void aChangedEntryFailsTheFootersChecksum() throws IOException {
    byte[] bytes = Files.readAllBytes(index);
    // the last entry's CRC32C (4 bytes), before the document count (one byte: 3) and the footer
    bytes[bytes.length - FOOTER - 1 - 2] ^= 0x5a;
    Files.write(index, bytes);
    assertThatThrownBy(this::read)
        .isInstanceOf(CorruptIndexException.class)
        .hasMessageContaining("checksum failed");
  }

  @Test
  void aDocumentCountThatDisagreesIsRefused() throws IOException {
    byte[] bytes = Files.readAllBytes(index);
    byte[] body = Arrays.copyOf(bytes, bytes.length - FOOTER);
    assertThat(body[body.length - 1]).as("the document count, one byte").isEqualTo((byte) 3);
    body[body.length - 1] = 4;
    Files.delete(index);
    try (FSDirectory fs = FSDirectory.open(directory);
        IndexOutput out = fs.createOutput(index.getFileName().toString(), IOContext.DEFAULT)) {
      out.writeBytes(body, body.length);
      CodecUtil.writeFooter(out); // a valid footer over the changed count
    }
    assertThatThrownBy(this::read)
        .isInstanceOf(CorruptIndexException.class)
        .hasMessageContaining("journal holds 3 documents, index says 4, segment has 3");
  }

  @Test
  void aTruncatedIndexIsRefused() throws IOException {
    byte[] bytes = Files.readAllBytes(index);
    Files.write(index, Arrays.copyOf(bytes, bytes.length - 3));
    assertThatThrownBy(this::read).isInstanceOf(CorruptIndexException.class);
  }

  private List<String> read() throws IOException {
    try (FSDirectory fs = FSDirectory.open(directory);
        DirectoryReader reader = DirectoryReader.open(fs)) {
      StoredFields fields = reader.leaves().get(0).reader().storedFields();
      List<String> raws = new java.util.ArrayList<>();
      for (int doc = 0; doc < reader.maxDoc(); doc++) {
        raws.add(fields.document(doc).get("_raw"));
      }
      return raws;
    }
  }
}
