package io.quarry.codecs.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFieldVisitor;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.MMapDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal block's decoded bytes are checked against the index's CRC32C once per open segment,
 * later reads check the compressed bytes they decode from against those that decoded right ({@link
 * VerifiedBlocks}) — and stored bytes damaged after the first read still fail every read. Stored
 * without compression, so the damaged bytes decode as they are and only a checksum tells: a reader
 * that skipped verified blocks altogether would return them.
 */
class JournalVerifiedBlocksTest {
  @TempDir Path directory;

  @Test
  void aBlockIsVerifiedInFullOncePerOpenSegmentAcrossClones() throws IOException {
    List<byte[]> payloads = write(JournalCompression.ZSTD);
    try (FSDirectory fs = FSDirectory.open(directory);
        DirectoryReader reader = DirectoryReader.open(fs)) {
      CodecReader segment = (CodecReader) reader.leaves().get(0).reader();
      VerifiedBlocks verified = journal(segment).verifiedBlocks();
      assertThat(verified.count()).isZero();
      StoredFields first = segment.storedFields();
      for (int doc = 0; doc < payloads.size(); doc++) {
        assertThat(payload(first, doc)).isEqualTo(payloads.get(doc));
      }
      assertThat(verified.count()).as("each block checked in full once").isEqualTo(6);
      JournalStoredFieldsReader second = journal(segment).clone(); // as another thread's
      for (int doc = payloads.size() - 1; doc >= 0; doc--) {
        assertThat(payload(second::document, doc)).isEqualTo(payloads.get(doc));
      }
      assertThat(verified.count()).isEqualTo(6);
    }
  }

  @Test
  void bytesDamagedAfterTheFirstReadFailEveryLaterRead() throws IOException {
    List<byte[]> payloads = write(JournalCompression.NONE);
    Path data;
    try (var files = Files.list(directory)) {
      data = files.filter(f -> f.toString().endsWith(".qjd")).findFirst().orElseThrow();
    }
    byte[] file = Files.readAllBytes(data);
    byte[] second = payloads.get(1);
    int at = 0;
    while (at + second.length <= file.length
        && !Arrays.equals(file, at, at + second.length, second, 0, second.length)) {
      at++;
    }
    assertThat(at + second.length)
        .as("the second block's payload, stored as is")
        .isLessThan(file.length);
    try (MMapDirectory fs = new MMapDirectory(directory);
        DirectoryReader reader = DirectoryReader.open(fs)) {
      CodecReader segment = (CodecReader) reader.leaves().get(0).reader();
      StoredFields fields = segment.storedFields();
      for (int doc = 0; doc < payloads.size(); doc++) {
        assertThat(payload(fields, doc)).isEqualTo(payloads.get(doc));
      }
      assertThat(journal(segment).verifiedBlocks().count()).isEqualTo(6);
      // damaged in place under the open, mapped segment: the mapping sees the new bytes
      try (FileChannel channel = FileChannel.open(data, StandardOpenOption.WRITE)) {
        channel.write(ByteBuffer.wrap(new byte[] {(byte) (second[0] ^ 0x5A)}), at + 7);
      }
      for (int attempt = 0; attempt < 2; attempt++) {
        assertThatThrownBy(() -> payload(fields, 1))
            .as("the damaged block, verified before, read %d times", attempt + 1)
            .isInstanceOf(CorruptIndexException.class)
            .hasMessageContaining("checksum mismatch");
        assertThatThrownBy(() -> payload(journal(segment).clone()::document, 1))
            .as("through another clone")
            .isInstanceOf(CorruptIndexException.class);
        assertThat(payload(fields, 2)).isEqualTo(payloads.get(2));
      }
    }
  }

  private static JournalStoredFieldsReader journal(CodecReader segment) {
    return (JournalStoredFieldsReader) segment.getFieldsReader();
  }

  /** Reads a document into a visitor: a {@link StoredFields} or a reader clone. */
  private interface Documents {
    void document(int doc, StoredFieldVisitor visitor) throws IOException;
  }

  private static byte[] payload(StoredFields fields, int doc) throws IOException {
    return payload((Documents) fields::document, doc);
  }

  /** Document {@code doc}'s payload (a copy). */
  private static byte[] payload(Documents fields, int doc) throws IOException {
    byte[][] copied = new byte[1][];
    fields.document(
        doc,
        new StoredFieldVisitor() {
          @Override
          public Status needsField(FieldInfo fieldInfo) {
            return fieldInfo.name.equals("block") ? Status.YES : Status.NO;
          }

          @Override
          public void binaryField(FieldInfo fieldInfo, byte[] value) {
            copied[0] = value;
          }
        });
    return copied[0];
  }

  /** Six documents, one journal block each. */
  private List<byte[]> write(JournalCompression compression) throws IOException {
    List<byte[]> payloads = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      byte[] payload = new byte[300 - 37 * i];
      Arrays.fill(payload, (byte) ('a' + i));
      payloads.add(payload);
    }
    try (FSDirectory fs = FSDirectory.open(directory);
        IndexWriter writer =
            new IndexWriter(
                fs,
                new IndexWriterConfig()
                    .setCodec(new QuarryCodec(compression, 64))
                    .setUseCompoundFile(false))) {
      for (byte[] payload : payloads) {
        Document document = new Document();
        document.add(new StoredField("block", payload));
        writer.addDocument(document);
      }
      writer.forceMerge(1);
    }
    return payloads;
  }
}
