package io.quarry.codecs.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.IOUtils;

/**
 * A bucket: one Lucene index holding the events of a time range, in {@code buckets/<id>/}. The hot
 * bucket takes writes; a warm bucket is read-only and described by {@code bucket.properties}
 * (written atomically when it rolls), which gives its time bounds, event count and last sequence
 * number, so a search can skip it without opening it. A bucket directory without that file was hot,
 * or full and waiting for its roll, when the process stopped, and is opened for writing again.
 *
 * <p>With compaction deferred ({@link CompactionSettings}) the hot bucket's merges write fast
 * journal blocks and {@link HotBucketCompaction#compactIfDue} starts a compaction ({@link
 * CompactionMergePolicy}) in the background once the bucket is idle or its fast segments pass the
 * bound; the roll compacts what is left. A compaction is a Lucene merge: searches see the segments
 * before it or after it, and a crash during one leaves the last commit as it was. A full bucket
 * waits for its roll while {@link HotBucketCompaction#compactBeforeRoll} compacts it (or while it
 * waits for the node's permit to, {@link CompactionPermits}): it takes no event, and is neither hot
 * nor warm.
 */
final class Bucket implements Closeable {
  static final String MANIFEST = BucketManifest.FILE;

  private final long id;
  private final Path path;
  private final Directory directory;
  private final long created;
  private final BucketFormat format;
  private final boolean termFilters;
  private final int layoutVersion;
  // hot (volatile: failed() reads it without the monitor a roll holds)
  private volatile IndexWriter writer;
  private final BucketSearchers search; // the hot searchers or the warm reader, under the monitor
  // one volatile: failed() reads it without the monitor a roll holds, and sees no half-made roll
  private volatile BucketState state = BucketState.HOT;
  private final BucketExtent extent = new BucketExtent(); // times, events, last sequence
  private final BucketCompaction compaction;
  private AbortableMergeScheduler mergeScheduler; // hot
  private final HotBucketCompaction hotCompaction;

  private Bucket(
      long id,
      Path path,
      Directory directory,
      long created,
      BucketFormat.Recorded recorded,
      CompactionMergePolicy compaction,
      BucketActivity activity) {
    this.id = id;
    this.path = path;
    this.directory = directory;
    this.created = created;
    this.format = recorded.format();
    this.termFilters = recorded.termFilters();
    this.layoutVersion = recorded.version();
    this.compaction = new BucketCompaction(compaction, activity);
    this.hotCompaction = new HotBucketCompaction(this, this.compaction);
    this.search = new BucketSearchers(this, directory);
  }

  /** Opens a bucket directory: warm when it has a manifest, hot (writable) otherwise. */
  static Bucket open(long id, Path path, IndexOptions options, long now) throws IOException {
    return open(id, path, options, now, BucketDirectories.DEFAULT);
  }

  /** Opens a bucket through a directory factory; tests pass one that injects I/O faults. */
  static Bucket open(
      long id, Path path, IndexOptions options, long now, BucketDirectories directories)
      throws IOException {
    return open(id, path, options, now, directories, System::nanoTime);
  }

  /**
   * As above, its idle time ({@link BucketActivity}) on {@code ticker}'s nanoseconds: tests move it
   * instead of sleeping.
   */
  static Bucket open(
      long id,
      Path path,
      IndexOptions options,
      long now,
      BucketDirectories directories,
      java.util.function.LongSupplier ticker)
      throws IOException {
    Files.createDirectories(path);
    Directory directory = directories.open(path);
    try {
      BucketFormat.Recorded recorded = BucketFormat.recordedVersion(path);
      BucketManifest manifest = BucketManifest.read(path);
      if (manifest != null) {
        Bucket bucket =
            new Bucket(
                id,
                path,
                directory,
                manifest.created(),
                recorded == null ? new BucketFormat.Recorded(BucketFormat.EVENTS, 1) : recorded,
                null,
                new BucketActivity(options.compaction().idleNanos(), ticker));
        bucket.state = BucketState.WARM;
        bucket.extent.set(
            manifest.minTime(), manifest.maxTime(), manifest.events(), manifest.maxSequence());
        return bucket;
      }
      recorded = BucketFormat.ofHot(recorded, path, directory, options);
      BucketActivity activity = new BucketActivity(options.compaction().idleNanos(), ticker);
      CompactionMergePolicy policy = HotBucketConfig.compactionPolicy(options, activity);
      Bucket bucket = new Bucket(id, path, directory, now, recorded, policy, activity);
      bucket.mergeScheduler = new AbortableMergeScheduler();
      IndexWriterConfig config =
          HotBucketConfig.of(options, recorded, bucket.compaction, bucket.mergeScheduler);
      bucket.writer = new IndexWriter(directory, config);
      bucket.search.openHot(bucket.writer);
      bucket.recomputeBounds();
      if (policy != null) {
        bucket.writer.maybeMerge(); // the policy learns what waits for compaction after a restart
      }
      return bucket;
    } catch (IOException | RuntimeException e) {
      IOUtils.closeWhileHandlingException(directory);
      throw e;
    }
  }

  /** Bounds, count and last sequence from the committed data (after a restart). */
  private void recomputeBounds() throws IOException {
    CommittedBounds bounds = CommittedBounds.of(writer, format);
    extent.set(bounds.minTime(), bounds.maxTime(), bounds.events(), bounds.maxSequence());
  }

  long id() {
    return id;
  }

  Path path() {
    return path;
  }

  /** The bucket's Lucene directory (its files; the writer and readers are the bucket's). */
  Directory directory() {
    return directory;
  }

  boolean isWarm() {
    return state == BucketState.WARM;
  }

  /**
   * What {@code quarry indexes} calls the bucket's state: {@code warm}; {@code rolling} while it
   * waits for its roll (full, compacting ahead of it) or rolls; {@code hot} otherwise.
   */
  String stateName() {
    return state.displayName(hotCompaction.waitingForRoll());
  }

  long minTime() {
    return extent.minTime();
  }

  long maxTime() {
    return extent.maxTime();
  }

  long events() {
    return extent.events();
  }

  long maxSequence() {
    return extent.maxSequence();
  }

  long created() {
    return created;
  }

  /** How this bucket lays out its events (fixed when it was created). */
  BucketFormat format() {
    return format;
  }

  /**
   * The version of the bucket's layout ({@link BucketFormat}: 1 for events; 1, 2 or 3 for blocks),
   * fixed when it was created.
   */
  int layoutVersion() {
    return layoutVersion;
  }

  /**
   * Whether the bucket's block documents carry term filters instead of {@code _tok} postings (block
   * layout 3; fixed when it was created).
   */
  boolean termFilters() {
    return termFilters;
  }

  /** Whether any event of the bucket can lie in {@code [earliest, latest)}. */
  boolean overlaps(long earliest, long latest) {
    return extent.overlaps(earliest, latest);
  }

  /**
   * Adds one document holding {@code count} events of times {@code [oldest, newest]}, the last of
   * sequence number {@code lastSequence}: one event, or a block of them (hot only; many threads may
   * add at once).
   */
  void add(Document document, long oldest, long newest, int count, long lastSequence)
      throws IOException {
    // bounds widen before the document can reach a searcher: a scan trusts them to hold every
    // event its searcher sees (TimeOrderedScan.withTimeRange)
    extent.widen(oldest, newest);
    writer.addDocument(document);
    compaction.added();
    search.added();
    extent.counted(count, lastSequence);
  }

  /** A counter bumped after every add; pass it to {@link #refresh(long)}. */
  long addedGeneration() {
    return search.addedGeneration();
  }

  /**
   * Makes every add up to {@code generation} searchable (a no-op once the bucket is warm), sharing
   * the refresh with concurrent callers ({@link SharedRefresh}).
   */
  void refresh(long generation) throws IOException {
    search.refresh(generation);
  }

  /**
   * Whether the bucket should take writes but its writer is gone: closed by a tragic exception
   * (disk full, an I/O error while flushing) or by a roll that failed half-way.
   */
  boolean failed() {
    // not synchronized: every add asks, and a roll holds the monitor through its merge. A roll in
    // progress has not failed, one that threw with the writer closed has. A roll marks the state
    // before it closes the writer: a closed writer seen while the state is hot both before and
    // after is no roll's but a tragic exception's
    IndexWriter current = writer;
    BucketState before = state;
    if (before != BucketState.HOT) {
      return before == BucketState.FAILED;
    }
    boolean closed = current == null || !current.isOpen();
    BucketState after = state;
    return after == BucketState.FAILED || closed && after == BucketState.HOT;
  }

  boolean hasUncommittedChanges() {
    return state != BucketState.WARM && writer.hasUncommittedChanges();
  }

  void commit() throws IOException {
    long compactions = compaction.compactionsDone();
    writer.commit();
    compaction.committed(compactions);
  }

  /**
   * Makes the hot bucket warm: merges it down to few segments, commits, closes the writer and
   * writes the manifest atomically. The forced merge (with deferred compaction, the zstd-9 rewrite
   * of every fast segment left) runs outside the bucket's monitor: searches of the rolling bucket
   * go on through its searchers meanwhile; only the short swap to the warm reader holds it.
   */
  void roll() throws IOException {
    compaction.rollExclusively(
        () -> {
          state = BucketState.ROLLING;
          try {
            writer.forceMerge(CompactionMergePolicy.ROLL_SEGMENTS);
            synchronized (this) {
              rollToWarm();
              state = BucketState.WARM;
            }
          } catch (IOException | RuntimeException | Error e) {
            IndexWriter current =
                writer; // still open: the roll failed before closing it, still hot
            state = current != null && current.isOpen() ? BucketState.HOT : BucketState.FAILED;
            throw e;
          }
        });
  }

  /**
   * The bucket's deferred compaction as its index and the node's permits see it, and the compaction
   * ahead of its roll once full ({@link HotBucketCompaction}).
   */
  HotBucketCompaction hotCompaction() {
    return hotCompaction;
  }

  /** The hot bucket's writer: null once warm (volatile: read without the monitor a roll holds). */
  IndexWriter writer() {
    return writer;
  }

  /** Where the bucket is in its life (volatile). */
  BucketState state() {
    return state;
  }

  /** Reopens the hot bucket's searchers on what its writer holds now (a no-op once warm). */
  void reopenSearchers() throws IOException {
    search.reopen();
  }

  /**
   * The error a search of a bucket whose writer failed gets: its last searcher may miss
   * acknowledged events, so it is not answered from (the index recovers the bucket, {@code
   * IndexWrites.recover}, at its next search, add or commit).
   */
  IOException writerFailed(Throwable cause) {
    IndexWriter current = writer;
    Throwable tragic = current == null ? null : current.getTragicException();
    return new IOException(
        "bucket "
            + id
            + " ("
            + path
            + ") cannot be searched: its writer failed and the bucket is being recovered",
        tragic != null ? tragic : cause);
  }

  private void rollToWarm() throws IOException {
    // nothing left to merge, unless a natural merge ended meanwhile
    writer.forceMerge(CompactionMergePolicy.ROLL_SEGMENTS);
    writer.commit();
    IOUtils.close(search::closeHot, writer);
    search.droppedHot();
    writer = null;
    extent.manifest(created).write(path);
  }

  /**
   * A searcher over the bucket; give it back with {@link #release}. For the hot bucket it first
   * refreshes when events were added since the last refresh, so a search sees every event
   * acknowledged before it started (read your writes); the refresh is shared with concurrent
   * searches and the background refresher.
   */
  IndexSearcher acquire() throws IOException {
    return search.acquire();
  }

  /**
   * How long ago a searcher was last asked for ({@link IndexStore#SEARCH_IDLE_NANOS} more than
   * since the bucket opened, if never: search idle from the start).
   */
  long nanosSinceAcquired() {
    return search.nanosSinceAcquired();
  }

  /** Whether events were added since the last refresh. */
  boolean needsRefresh() {
    return search.needsRefresh();
  }

  void release(IndexSearcher searcher) throws IOException {
    search.release(searcher);
  }

  /**
   * Closes the bucket without waiting for its running merges (a compaction's zstd-9 rewrite): they
   * are aborted and the writer rolled back. Only once every event added is committed or in the
   * write-ahead log ({@code IndexStore.close}, after its last commit): what the writer holds beyond
   * its last commit is dropped.
   */
  void closeAbortingMerges() throws IOException {
    compaction.close(); // no compaction starts from here on
    IndexWriter current = writer;
    if (state == BucketState.HOT && current != null && current.isOpen()) {
      mergeScheduler.abortRunning();
      try {
        current.rollback();
      } catch (java.nio.channels.ClosedChannelException lockClosed) {
        // the abort's interrupt met the merge thread checking the write lock, which closes the
        // lock's channel (and so releases the lock): the rollback ended but for that release
        if (current.isOpen()) {
          throw lockClosed;
        }
      }
    }
    close();
  }

  @Override
  public synchronized void close() throws IOException {
    IOUtils.close(search::closeHot, writer, search::closeReader, directory);
  }
}
