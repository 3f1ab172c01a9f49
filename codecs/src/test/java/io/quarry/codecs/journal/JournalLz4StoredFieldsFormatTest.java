package io.quarry.codecs.journal;

import org.apache.lucene.codecs.Codec;
import org.apache.lucene.tests.index.BaseStoredFieldsFormatTestCase;

/**
 * Lucene's randomized stored-fields conformance suite against the journal with LZ4 compression and
 * a small random block size, so documents straddle many blocks; merges write fast or compact
 * blocks.
 */
public class JournalLz4StoredFieldsFormatTest extends BaseStoredFieldsFormatTestCase {
  @Override
  protected Codec getCodec() {
    // every merge compact or none: both encoders of the mode meet the suite
    return new QuarryCodec(
        JournalCompression.LZ4,
        1 + random().nextInt(16 * 1024),
        random().nextBoolean() ? 0 : Long.MAX_VALUE);
  }
}
