package io.quarry.codecs.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal writer's block buffers (the raw block and its compressed form) are kept across blocks
 * that are all larger than four times the block size — the block layout's documents of 2,048
 * events, each its own journal block — instead of two new arrays per block, and each block still
 * reads back as written.
 */
class JournalBlockBuffersTest {
  private static final int BLOCK_SIZE = 1024;
  private static final int DOCUMENT_BYTES = 16 * BLOCK_SIZE;
  private static final int DOCUMENTS = 200;

  @TempDir Path directory;

  @Test
  void largeBlocksReuseTheWritersBuffers() throws IOException {
    Random random = new Random(23);
    List<byte[]> payloads = new ArrayList<>();
    for (int i = 0; i < 8; i++) { // random: a payload's compressed bound is its own size
      payloads.add(JournalPayloads.randomBytes(random, DOCUMENT_BYTES));
    }
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long allocated;
    try (FSDirectory fs = FSDirectory.open(directory);
        IndexWriter writer =
            new IndexWriter(
                fs,
                JournalPayloads.config(JournalCompression.ZSTD, BLOCK_SIZE)
                    .setRAMBufferSizeMB(256))) {
      Document document = new Document();
      StoredField field = new StoredField(JournalPayloads.FIELD, new BytesRef(payloads.get(0)));
      document.add(field);
      for (int doc = 0; doc < 16; doc++) { // the writer's buffers grown, the JIT past its start
        field.setBytesValue(new BytesRef(payloads.get(doc % payloads.size())));
        writer.addDocument(document);
      }
      long before = threads.getCurrentThreadAllocatedBytes();
      for (int doc = 16; doc < DOCUMENTS; doc++) {
        field.setBytesValue(new BytesRef(payloads.get(doc % payloads.size())));
        writer.addDocument(document);
      }
      allocated = threads.getCurrentThreadAllocatedBytes() - before;
      writer.commit();
    }
    // two new arrays of about the document's size per block before; now what Lucene's own
    // per-document work allocates, far below one document's size per block
    assertThat(allocated / (DOCUMENTS - 16))
        .as("bytes allocated per block of %d bytes", DOCUMENT_BYTES)
        .isLessThan(DOCUMENT_BYTES / 2);
    List<byte[]> written = new ArrayList<>();
    for (int doc = 0; doc < DOCUMENTS; doc++) {
      written.add(payloads.get(doc % payloads.size()));
    }
    JournalPayloads.assertReadBack(directory, written);
  }
}
