package io.quarry.codecs.journal;

import org.apache.lucene.codecs.Codec;
import org.apache.lucene.tests.index.BaseStoredFieldsFormatTestCase;

/**
 * Lucene's randomized stored-fields conformance suite against the journal under the default
 * setting, {@link JournalCompression#LZ4_ZSTD}: flushes and small merges write lz4, merges from a
 * random size on write zstd, so one index holds segments of both codecs and merges read one and
 * write the other (no block is copied across codecs). A small random block size, so documents
 * straddle many blocks.
 */
public class JournalLz4ZstdStoredFieldsFormatTest extends BaseStoredFieldsFormatTestCase {
  @Override
  protected Codec getCodec() {
    long compactMergeBytes =
        switch (random().nextInt(3)) {
          case 0 -> 0; // every merge compact
          case 1 -> Long.MAX_VALUE; // every merge fast
          default -> 1 + random().nextInt(256 * 1024); // the larger merges compact
        };
    return new QuarryCodec(
        JournalCompression.LZ4_ZSTD, 1 + random().nextInt(16 * 1024), compactMergeBytes);
  }
}
