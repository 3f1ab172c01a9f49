package io.quarry.codecs.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * Documents of one stored binary field, {@code payload}, written through the journal and read back:
 * what the journal writer's buffer tests write, in blocks of a chosen size, and check.
 */
final class JournalPayloads {
  static final String FIELD = "payload";

  private JournalPayloads() {}

  /** A writer's configuration whose stored fields are a journal of blocks of {@code blockSize}. */
  static IndexWriterConfig config(JournalCompression compression, int blockSize) {
    return new IndexWriterConfig().setCodec(new QuarryCodec(compression, blockSize));
  }

  /** {@code size} random bytes: their compressed form is no smaller than they are. */
  static byte[] randomBytes(Random random, int size) {
    byte[] bytes = new byte[size];
    random.nextBytes(bytes);
    return bytes;
  }

  /** A document whose payload is {@code payload}. */
  static Document document(byte[] payload) {
    Document document = new Document();
    document.add(new StoredField(FIELD, new BytesRef(payload)));
    return document;
  }

  /** That the one segment in {@code directory} holds {@code expected}'s payloads, in order. */
  static void assertReadBack(Path directory, List<byte[]> expected) throws IOException {
    try (FSDirectory fs = FSDirectory.open(directory);
        DirectoryReader reader = DirectoryReader.open(fs)) {
      assertThat(reader.maxDoc()).isEqualTo(expected.size());
      StoredFields fields = reader.leaves().get(0).reader().storedFields();
      for (int doc = 0; doc < expected.size(); doc++) {
        assertThat(BytesRef.deepCopyOf(fields.document(doc).getBinaryValue(FIELD)).bytes)
            .as("doc %d", doc)
            .isEqualTo(expected.get(doc));
      }
    }
  }
}
