package io.quarry.codecs.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.CorruptIndexException;
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
 * A visitor that keeps a binary field's bytes gets the journal's decoded block itself, and those
 * bytes stay as they were however many blocks the same reader decodes afterwards — a block
 * document's payload is read without a copy and outlives the scan's next read.
 */
class JournalKeptBinaryTest {
  @TempDir Path directory;

  @Test
  void keptBytesOutliveTheReadersNextBlocks() throws IOException {
    List<byte[]> payloads = write();
    try (FSDirectory fs = FSDirectory.open(directory);
        DirectoryReader reader = DirectoryReader.open(fs)) {
      StoredFields fields = reader.leaves().get(0).reader().storedFields();
      List<Keeper> kept = new ArrayList<>();
      for (int doc = 0; doc < reader.maxDoc(); doc++) {
        Keeper keeper = new Keeper();
        fields.document(doc, keeper);
        kept.add(keeper);
      }
      for (int doc = 0; doc < kept.size(); doc++) {
        Keeper keeper = kept.get(doc);
        assertThat(Arrays.copyOfRange(keeper.bytes, keeper.offset, keeper.offset + keeper.length))
            .as("doc %d's kept bytes after every later read", doc)
            .isEqualTo(payloads.get(doc));
        assertThat(keeper.name).isEqualTo("doc " + (char) ('a' + doc)); // read after the payload
      }
      assertThat(plain(fields, 2)).isEqualTo(payloads.get(2)); // a copy of its own
    }
  }

  /**
   * Bytes handed back are what the reader decodes its next block into; bytes handed back only after
   * a later block was decoded are not taken again (the visitor of that later block still holds its
   * own), and every read sees its own document.
   */
  @Test
  void givenBackBytesTakeTheNextBlock() throws IOException {
    List<byte[]> payloads = write();
    try (FSDirectory fs = FSDirectory.open(directory);
        DirectoryReader reader = DirectoryReader.open(fs)) {
      StoredFields fields = reader.leaves().get(0).reader().storedFields();
      Keeper first = read(fields, 0, payloads);
      first.lender.giveBack(first.bytes);
      Keeper second = read(fields, 1, payloads);
      assertThat(second.bytes).as("decoded into the bytes given back").isSameAs(first.bytes);
      Keeper third = read(fields, 2, payloads); // second's loan is out: new bytes
      assertThat(third.bytes).isNotSameAs(second.bytes);
      second.lender.giveBack(second.bytes); // too late: third's block holds other bytes
      Keeper fourth = read(fields, 3, payloads);
      assertThat(fourth.bytes).isNotSameAs(third.bytes).isNotSameAs(second.bytes);
      assertThat(Arrays.copyOfRange(third.bytes, third.offset, third.offset + third.length))
          .isEqualTo(payloads.get(2));
      fourth.lender.giveBack(fourth.bytes);
      fourth.lender.giveBack(fourth.bytes); // once too often: no loan to take back, no harm
      Keeper fifth = read(fields, 4, payloads);
      assertThat(fifth.bytes).isSameAs(fourth.bytes);
    }
  }

  /**
   * A block whose decode fails (damaged bytes) leaves nothing of itself behind: its bytes were
   * written over the reader's cached block, so that block is no longer taken for the one it held,
   * and reading that block's document again decodes it afresh; the damaged block fails each time it
   * is read, and bytes given back before the failure still take later blocks whole. Stored without
   * compression, so the damaged block is decoded in full over the cached one and only its CRC32C
   * tells.
   */
  @Test
  void aFailedDecodeLeavesNoStaleBytes() throws IOException {
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
    file[at + second.length / 2] ^= 0x5A;
    Files.write(data, file);
    try (FSDirectory fs = FSDirectory.open(directory);
        DirectoryReader reader = DirectoryReader.open(fs)) {
      StoredFields fields = reader.leaves().get(0).reader().storedFields();
      assertThat(plain(fields, 0)).isEqualTo(payloads.get(0)); // block 0 now the cached one
      for (int attempt = 0; attempt < 2; attempt++) {
        assertThatThrownBy(() -> plain(fields, 1))
            .as("the damaged block, read %d times", attempt + 1)
            .isInstanceOf(CorruptIndexException.class);
        assertThat(plain(fields, 0))
            .as("block 0 again after a failed decode over its bytes")
            .isEqualTo(payloads.get(0));
      }
      Keeper kept = read(fields, 2, payloads);
      kept.lender.giveBack(kept.bytes);
      assertThatThrownBy(() -> plain(fields, 1)).isInstanceOf(CorruptIndexException.class);
      read(fields, 3, payloads); // into the bytes given back, which the failure wrote over
      assertThat(plain(fields, 5)).isEqualTo(payloads.get(5));
    }
  }

  /** Document {@code doc}'s payload as a visitor that keeps nothing gets it (a copy). */
  private static byte[] plain(StoredFields fields, int doc) throws IOException {
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

  private static Keeper read(StoredFields fields, int doc, List<byte[]> payloads)
      throws IOException {
    Keeper keeper = new Keeper();
    fields.document(doc, keeper);
    assertThat(Arrays.copyOfRange(keeper.bytes, keeper.offset, keeper.offset + keeper.length))
        .as("doc %d", doc)
        .isEqualTo(payloads.get(doc));
    return keeper;
  }

  private List<byte[]> write() throws IOException {
    return write(JournalCompression.ZSTD);
  }

  /** Six documents, one journal block each, each payload smaller than the one before. */
  private List<byte[]> write(JournalCompression compression) throws IOException {
    List<byte[]> payloads = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      byte[] payload = new byte[300 - 37 * i]; // over a 64-byte block: one block each, the
      // next smaller than the last, so a reader reusing its buffer would write over it
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
        document.add(new StoredField("name", "doc " + (char) payload[0]));
        writer.addDocument(document);
      }
      writer.forceMerge(1);
    }
    return payloads;
  }

  private static final class Keeper extends StoredFieldVisitor implements KeptBinaryFieldVisitor {
    byte[] bytes;
    int offset;
    int length;
    String name;
    JournalBlock lender;

    @Override
    public Status needsField(FieldInfo fieldInfo) {
      return Status.YES;
    }

    @Override
    public void binaryField(
        FieldInfo fieldInfo, byte[] value, int offset, int length, JournalBlock lender) {
      this.lender = lender;
      this.bytes = value;
      this.offset = offset;
      this.length = length;
    }

    @Override
    public void stringField(FieldInfo fieldInfo, String value) {
      name = value;
    }
  }
}
