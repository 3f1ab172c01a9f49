package io.quarry.codecs.store;

import io.quarry.codecs.block.EventBlock;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Bits;

/**
 * {@code quarry fsck}'s check of a block bucket beyond Lucene's {@code CheckIndex} (which verifies
 * the files' checksums and reads every stored field, so each journal block's CRC): every event
 * block is opened (its own CRC) and decoded whole ({@link EventBlock#verify}), and agrees with its
 * document's doc values — its event count with {@code _n}, its newest time with {@code _time}.
 */
final class BlockBucketCheck {
  private BlockBucketCheck() {}

  /** The first problem found in the block bucket at {@code bucket}, or null when there is none. */
  static String firstProblem(Path bucket) throws IOException {
    try (FSDirectory directory = FSDirectory.open(bucket);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      for (LeafReaderContext leaf : reader.leaves()) {
        String problem = firstProblem(leaf.reader());
        if (problem != null) {
          return "segment " + leaf.ord + ", " + problem;
        }
      }
    }
    return null;
  }

  private static String firstProblem(LeafReader reader) throws IOException {
    StoredFields journal = reader.storedFields();
    NumericDocValues counts = DocValues.getNumeric(reader, BlockDocuments.COUNT);
    NumericDocValues newest = DocValues.getNumeric(reader, EventFields.TIME);
    Bits live = reader.getLiveDocs();
    for (int doc = 0; doc < reader.maxDoc(); doc++) {
      if (live != null && !live.get(doc)) {
        continue;
      }
      try {
        BlockEvents block = BlockEvents.read("fsck", journal, doc);
        block.verify();
        if (!counts.advanceExact(doc) || counts.longValue() != block.count()) {
          return "block " + doc + ": " + block.count() + " events, its _n says otherwise";
        }
        if (!newest.advanceExact(doc)
            || (block.count() > 0 && newest.longValue() != block.time(0))) {
          return "block " + doc + ": newest event at " + block.time(0) + ", its _time differs";
        }
      } catch (IOException | RuntimeException e) {
        return "block " + doc + ": " + e.getMessage();
      }
    }
    return null;
  }
}
