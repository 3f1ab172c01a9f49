package io.quarry.codecs.store;

import io.quarry.codecs.journal.JournalStoredFieldsFormat;
import io.quarry.codecs.journal.QuarryCodec;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;

/**
 * How a hot bucket's Lucene writer is set up: the journal codec (merges compact inline, or only
 * forced ones when compaction is deferred), the merge policy (tiered, under {@link
 * CompactionMergePolicy} when deferred), newest-first index sort for the layouts that sort, an
 * abortable merge scheduler, a RAM buffer of {@link #ramBufferMB} (64 MB unless {@link
 * #RAM_BUFFER_PROPERTY} says otherwise), flushed segments without a compound file and a commit on
 * close.
 */
final class HotBucketConfig {
  /**
   * The developer setting ({@code -Dquarry.storage.ramBufferMB=<MB>}) that sizes the Lucene RAM
   * buffer of every hot bucket opened afterwards: the events a bucket holds in memory before it
   * flushes a segment. For measurements (docs/design/block-index.md, "Lucene's RAM buffer"); not a
   * configuration setting.
   */
  static final String RAM_BUFFER_PROPERTY = "quarry.storage.ramBufferMB";

  /** The RAM buffer without {@link #RAM_BUFFER_PROPERTY}. */
  static final int DEFAULT_RAM_BUFFER_MB = 64;

  private static final Sort TIME_DESCENDING =
      new Sort(new SortField(EventFields.TIME, SortField.Type.LONG, true));

  private HotBucketConfig() {}

  /**
   * The developer switch ({@code -Dquarry.storage.deferNaturalMerges=false}) that lets a hot
   * bucket's natural merges of fast segments run while it takes events, as before session 39: for
   * A/B runs of the deferral ({@link CompactionMergePolicy}) on one jar.
   */
  static final String DEFER_NATURAL_MERGES_PROPERTY = "quarry.storage.deferNaturalMerges";

  /**
   * The merge policy of a hot bucket when compaction is deferred, else null.
   *
   * @param activity when the bucket last took an event: its natural merges of fast segments wait
   *     while it takes events (unless {@link #DEFER_NATURAL_MERGES_PROPERTY} is false)
   */
  static CompactionMergePolicy compactionPolicy(IndexOptions options, BucketActivity activity) {
    if (!options.compaction().deferred()) {
      return null;
    }
    TieredMergePolicy natural = new TieredMergePolicy();
    boolean defer = !"false".equals(System.getProperty(DEFER_NATURAL_MERGES_PROPERTY));
    return new CompactionMergePolicy(
        natural,
        (long) (natural.getMaxMergedSegmentMB() * 1024 * 1024),
        defer ? activity : null,
        options.compaction().idleMinBytes());
  }

  /**
   * The writer's settings.
   *
   * @param compaction the bucket's; its policy (null: inline) merges, it counts merged segments
   */
  static IndexWriterConfig of(
      IndexOptions options,
      BucketFormat.Recorded recorded,
      BucketCompaction compaction,
      AbortableMergeScheduler scheduler) {
    boolean deferred = compaction.policy() != null;
    IndexWriterConfig config = new IndexWriterConfig();
    config.setCodec(
        new QuarryCodec(
            options.journalCompression(),
            options.journalBlockSize(),
            deferred ? Long.MAX_VALUE : JournalStoredFieldsFormat.compactMergeBytes(),
            deferred));
    if (deferred) {
      config.setMergePolicy(compaction.policy());
    }
    if (recorded.timeSorted()) {
      // events, and block buckets of layout 1; a layout 2 block segment keeps its blocks in the
      // order written (no stored-fields rewrite at flush and merge), BlockCursor orders them
      config.setIndexSort(TIME_DESCENDING);
    }
    config.setMergeScheduler(scheduler);
    config.setRAMBufferSizeMB(ramBufferMB());
    // A flushed segment is young: merged into a compact segment soon after, so packing its files
    // into one compound file (Lucene's default) wrote every byte of it twice on the ingest path
    // (session 48: the copy was 6.7% of the server's samples in a 10M window's profile; the
    // server's CPU -5% in three alternated window pairs, -2.5% without the cold first one). Merged
    // segments keep the merge policy's rule (a compound file only for one under a tenth of the
    // bucket).
    config.setUseCompoundFile(compoundFlushes());
    config.setMergedSegmentWarmer(merged -> compaction.merged());
    config.setCommitOnClose(true);
    return config;
  }

  /**
   * The developer switch ({@code -Dquarry.storage.compoundFlushes=true}) that packs each flushed
   * segment into a compound file again, as before session 48: for A/B runs on one jar.
   */
  static final String COMPOUND_FLUSHES_PROPERTY = "quarry.storage.compoundFlushes";

  /**
   * Whether flushed segments are packed into a compound file ({@link #COMPOUND_FLUSHES_PROPERTY}).
   */
  static boolean compoundFlushes() {
    return "true".equals(System.getProperty(COMPOUND_FLUSHES_PROPERTY));
  }

  /**
   * The RAM buffer of a hot bucket's writer, in MB: {@link #RAM_BUFFER_PROPERTY} when set (1 to
   * 2047, Lucene's bound), else {@link #DEFAULT_RAM_BUFFER_MB}.
   *
   * @throws IllegalArgumentException when the property is not a whole number in that range
   */
  static int ramBufferMB() {
    String value = System.getProperty(RAM_BUFFER_PROPERTY);
    if (value == null) {
      return DEFAULT_RAM_BUFFER_MB;
    }
    int mb;
    try {
      mb = Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      mb = 0;
    }
    if (mb < 1 || mb > 2047) {
      throw new IllegalArgumentException(
          "-D" + RAM_BUFFER_PROPERTY + " must be a whole number of MB from 1 to 2047: " + value);
    }
    return mb;
  }
}
