package io.quarry.codecs.store;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;

/**
 * A warm bucket rewritten behind the store's back, as damage or a writer's bug would leave it: the
 * change is committed through Lucene (doc-values updates), so its checksums hold.
 */
final class ForgedBucket {
  private ForgedBucket() {}

  /** A change to a bucket's index. */
  @FunctionalInterface
  interface Change {
    void apply(IndexWriter writer) throws IOException;
  }

  /** Applies {@code change} to the bucket at {@code bucket} and commits it. */
  static void rewrite(Path bucket, Change change) throws IOException {
    try (FSDirectory directory = FSDirectory.open(bucket);
        IndexWriter writer =
            new IndexWriter(
                directory,
                new IndexWriterConfig()
                    .setCodec(new io.quarry.codecs.journal.QuarryCodec())
                    .setOpenMode(IndexWriterConfig.OpenMode.APPEND))) {
      change.apply(writer);
      writer.commit();
    }
  }
}
