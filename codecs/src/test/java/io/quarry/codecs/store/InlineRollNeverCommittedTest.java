package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inline roll's check whether its forced merge compacts ({@link
 * HotBucketCompaction#rollCompacts}) on a bucket that never committed (a new writer commits nothing
 * until its first commit; a bucket is left so by a crash or a failed commit before it): it counts
 * no segments, merges nothing, and the bucket rolls. Reading the last commit of such a bucket threw
 * {@link org.apache.lucene.index.IndexNotFoundException}, as the deferred check's did.
 */
class InlineRollNeverCommittedTest {
  @TempDir Path data;

  @Test
  void aBucketThatNeverCommittedCompactsNothingInItsInlineRollAndRolls() throws Exception {
    IndexOptions inline = IndexOptions.builder().compaction(CompactionSettings.INLINE).build();
    try (Bucket bucket = Bucket.open(1, data.resolve("1"), inline, 0)) {
      assertThat(
              org.apache.lucene.index.DirectoryReader.indexExists(bucket.writer().getDirectory()))
          .as("a new bucket has no commit")
          .isFalse();
      assertThat(bucket.hotCompaction().inline()).isTrue();

      assertThat(bucket.hotCompaction().rollCompacts()).isFalse();

      bucket.roll();
      assertThat(bucket.isWarm()).isTrue();
    }
  }
}
