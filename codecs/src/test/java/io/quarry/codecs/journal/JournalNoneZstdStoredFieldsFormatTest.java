package io.quarry.codecs.journal;

import org.apache.lucene.codecs.Codec;
import org.apache.lucene.tests.index.BaseStoredFieldsFormatTestCase;

/**
 * Lucene's randomized stored-fields conformance suite against the journal under {@link
 * JournalCompression#NONE_ZSTD} (session 47): flushes and small merges store their blocks as they
 * are, merges from a random size on write zstd, so one index holds segments of both codecs and
 * merges read one and write the other (no block is copied across codecs). A small random block
 * size, so documents straddle many blocks.
 */
public class JournalNoneZstdStoredFieldsFormatTest extends BaseStoredFieldsFormatTestCase {
  @Override
  protected Codec getCodec() {
    long compactMergeBytes =
        switch (random().nextInt(3)) {
          case 0 -> 0; // every merge compact
          case 1 -> Long.MAX_VALUE; // every merge fast
          default -> 1 + random().nextInt(256 * 1024); // the larger merges compact
        };
    return new QuarryCodec(
        JournalCompression.NONE_ZSTD, 1 + random().nextInt(16 * 1024), compactMergeBytes);
  }
}
