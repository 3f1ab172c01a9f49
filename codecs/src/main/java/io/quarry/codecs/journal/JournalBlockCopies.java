package io.quarry.codecs.journal;

import org.apache.lucene.codecs.StoredFieldsReader;
import org.apache.lucene.index.MergeState;
import org.apache.lucene.util.Bits;

/**
 * Which of a merge's source blocks a {@link JournalStoredFieldsWriter} copies as they are, and
 * whether the merge itself turns compact ({@link JournalStoredFieldsFormat}, "Merges copy blocks"):
 * a source's blocks are candidates when it numbers its fields as the merged segment does and wrote
 * them with the codec and level the merge writes; a candidate block is copied when none of its
 * documents is deleted and it is at least half full, so short blocks do not pile up over
 * generations of merges. A merge whose sources are all compact writes compact blocks, so merging
 * compacted segments copies their blocks. The writer does the copying and re-encoding; this is the
 * policy alone.
 */
final class JournalBlockCopies {
  private JournalBlockCopies() {}

  /**
   * Whether every source of the merge is a journal of compact blocks (and there is one): of the
   * compact codec of {@code compression}, at its level or in a segment that says it is compact
   * (written at an earlier compact level: re-encoded at this one, not written fast and compacted
   * again).
   */
  static boolean compactSources(MergeState mergeState, JournalCompression compression) {
    JournalCodec compactCodec = compression.codec(true);
    for (StoredFieldsReader source : mergeState.storedFieldsReaders) {
      if (!(source instanceof JournalStoredFieldsReader journal)
          || journal.codec() != compactCodec
          || (journal.level() != compactCodec.level(true) && !journal.compactSegment())) {
        return false;
      }
    }
    return mergeState.storedFieldsReaders.length > 0;
  }

  /**
   * The source's journal when its blocks are candidates for a copy into a segment written with
   * {@code codec} at {@code level} ({@code matching}: it numbers its fields as the merged segment
   * does); null when every document of it is re-encoded.
   */
  static JournalStoredFieldsReader candidate(
      StoredFieldsReader source, boolean matching, JournalCodec codec, int level) {
    return matching
            && source instanceof JournalStoredFieldsReader journal
            && journal.codec() == codec
            && journal.level() == level
        ? journal
        : null;
  }

  /**
   * Whether a candidate's block may be copied into blocks of {@code blockSize}: none of its
   * documents deleted, at least half full.
   */
  static boolean copyable(
      JournalStoredFieldsReader source, int block, Bits liveDocs, int blockSize) {
    int first = source.docBase(block);
    int count = source.docCount(block);
    if (liveDocs != null) {
      for (int doc = first; doc < first + count; doc++) {
        if (!liveDocs.get(doc)) {
          return false;
        }
      }
    }
    return source.rawLength(block) >= blockSize / 2
        || count >= JournalStoredFieldsFormat.MAX_DOCS_PER_BLOCK / 2;
  }
}
