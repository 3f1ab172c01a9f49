package io.quarry.codecs.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The other half of the journal writer's buffer rule ({@code JournalBlockBuffersTest} checks that
 * blocks all of one large size keep theirs): a huge document's raw and compressed buffers are let
 * go once a block of ordinary size follows it, as the writer's memory that Lucene's flush by RAM
 * reads shows, and every document still reads back.
 */
class JournalBufferReleaseTest {
  private static final int BLOCK_SIZE = 1024;
  private static final int HUGE = 8 << 20;

  @TempDir Path directory;

  @Test
  void aHugeDocumentsBuffersAreLetGoAfterAnOrdinaryBlock() throws IOException {
    Random random = new Random(36);
    byte[] huge = new byte[HUGE]; // random: its compressed form is no smaller than it
    random.nextBytes(huge);
    byte[] small = new byte[100];
    random.nextBytes(small);
    long withHuge;
    long afterSmall;
    int documents = 0;
    try (FSDirectory fs = FSDirectory.open(directory);
        IndexWriter writer =
            new IndexWriter(
                fs,
                new IndexWriterConfig()
                    .setCodec(new QuarryCodec(JournalCompression.ZSTD, BLOCK_SIZE))
                    .setRAMBufferSizeMB(512)
                    // a document count to flush at makes Lucene account every document's memory,
                    // smaller as well as larger, instead of only growths past its granularity
                    .setMaxBufferedDocs(1_000_000))) {
      writer.addDocument(document(small));
      documents++;
      long before = writer.ramBytesUsed();
      writer.addDocument(document(huge));
      documents++;
      withHuge = writer.ramBytesUsed() - before;
      // enough small documents to fill and write one ordinary block after the huge one
      for (int i = 0; i < 2 * BLOCK_SIZE / small.length; i++) {
        writer.addDocument(document(small));
        documents++;
      }
      afterSmall = writer.ramBytesUsed() - before;
      writer.commit();
    }
    assertThat(withHuge).as("the huge block's raw and compressed buffers").isGreaterThan(2L * HUGE);
    assertThat(afterSmall).as("once an ordinary block followed it").isLessThan(HUGE / 4);
    try (FSDirectory fs = FSDirectory.open(directory);
        DirectoryReader reader = DirectoryReader.open(fs)) {
      assertThat(reader.maxDoc()).isEqualTo(documents);
      StoredFields fields = reader.leaves().get(0).reader().storedFields();
      for (int doc = 0; doc < documents; doc++) {
        assertThat(BytesRef.deepCopyOf(fields.document(doc).getBinaryValue("payload")).bytes)
            .as("doc %d", doc)
            .isEqualTo(doc == 1 ? huge : small);
      }
    }
  }

  private static Document document(byte[] payload) {
    Document document = new Document();
    document.add(new StoredField("payload", new BytesRef(payload)));
    return document;
  }
}
