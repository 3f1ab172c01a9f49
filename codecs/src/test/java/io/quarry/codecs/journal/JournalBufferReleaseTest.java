package io.quarry.codecs.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.store.FSDirectory;
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
    byte[] huge = JournalPayloads.randomBytes(random, HUGE);
    byte[] small = JournalPayloads.randomBytes(random, 100);
    long withHuge;
    long afterSmall;
    List<byte[]> written = new ArrayList<>();
    try (FSDirectory fs = FSDirectory.open(directory);
        IndexWriter writer =
            new IndexWriter(
                fs,
                JournalPayloads.config(JournalCompression.ZSTD, BLOCK_SIZE)
                    .setRAMBufferSizeMB(512)
                    // a document count to flush at makes Lucene account every document's memory,
                    // smaller as well as larger, instead of only growths past its granularity
                    .setMaxBufferedDocs(1_000_000))) {
      add(writer, small, written);
      long before = writer.ramBytesUsed();
      add(writer, huge, written);
      withHuge = writer.ramBytesUsed() - before;
      // enough small documents to fill and write one ordinary block after the huge one
      for (int i = 0; i < 2 * BLOCK_SIZE / small.length; i++) {
        add(writer, small, written);
      }
      afterSmall = writer.ramBytesUsed() - before;
      writer.commit();
    }
    assertThat(withHuge).as("the huge block's raw and compressed buffers").isGreaterThan(2L * HUGE);
    assertThat(afterSmall).as("once an ordinary block followed it").isLessThan(HUGE / 4);
    JournalPayloads.assertReadBack(directory, written);
  }

  private static void add(IndexWriter writer, byte[] payload, List<byte[]> written)
      throws IOException {
    writer.addDocument(JournalPayloads.document(payload));
    written.add(payload);
  }
}
