package io.quarry.codecs.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
 * A visitor that keeps a binary field's bytes gets the journal's decoded block itself, and those
 * bytes stay as they were however many blocks the same reader decodes afterwards — a block
 * document's payload is read without a copy and outlives the scan's next read.
 */
class JournalKeptBinaryTest {
  @TempDir Path directory;

  @Test
  void keptBytesOutliveTheReadersNextBlocks() throws IOException {
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
                new IndexWriterConfig().setCodec(new QuarryCodec(JournalCompression.ZSTD, 64)))) {
      for (byte[] payload : payloads) {
        Document document = new Document();
        document.add(new StoredField("block", payload));
        document.add(new StoredField("name", "doc " + (char) payload[0]));
        writer.addDocument(document);
      }
      writer.forceMerge(1);
    }
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
      // a plain visitor still gets a copy of its own
      byte[][] copied = new byte[1][];
      fields.document(
          2,
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
      assertThat(copied[0]).isEqualTo(payloads.get(2));
    }
  }

  private static final class Keeper extends StoredFieldVisitor implements KeptBinaryFieldVisitor {
    byte[] bytes;
    int offset;
    int length;
    String name;

    @Override
    public Status needsField(FieldInfo fieldInfo) {
      return Status.YES;
    }

    @Override
    public void binaryField(FieldInfo fieldInfo, byte[] value, int offset, int length) {
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
