package io.quarry.codecs.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.IOUtils;

/**
 * A bucket: one Lucene index holding the events of a time range, in {@code buckets/<id>/}. The hot
 * bucket takes writes; a warm bucket is read-only and described by {@code bucket.properties}
 * (written atomically when it rolls), which gives its time bounds, event count and last sequence
 * number, so a search can skip it without opening it. A bucket directory without that file was hot,
 * or full and waiting for its roll, when the process stopped, and is opened for writing again.
 *
 * <p>With compaction deferred ({@link CompactionSettings}) the hot bucket's merges write fast
 * journal blocks and {@link #compactIfDue} starts a compaction ({@link CompactionMergePolicy}) in
 * the background once the bucket is idle or its fast segments pass the bound; the roll compacts
 * what is left. A compaction is a Lucene merge: searches see the segments before it or after it,
 * and a crash during one leaves the last commit as it was. A full bucket waits for its roll while
 * {@link #compactBeforeRoll} compacts it (or while it waits for the node's permit to, {@link
 * CompactionPermits}): it takes no event, and is neither hot nor warm.
 */
final class Bucket implements Closeable {
  static final String MANIFEST = BucketManifest.FILE;

  private final long id;
  private final Path path;
  private final Directory directory;
  private final long created;
  private final BucketFormat format;
  private final boolean termFilters;
  // hot (volatile: failed() reads it without the monitor a roll holds)
  private volatile IndexWriter writer;
  private SearcherManager searchers;
  // warm
  private DirectoryReader reader; // opened on first search
  private final Object statistics = new Object();
  private final SharedRefresh refreshes = new SharedRefresh();
  // never searched counts as search idle: a bucket nobody has searched yet (a new hot bucket, the
  // _audit and _internal buckets a search writes to) is not refreshed in the background
  private volatile long lastAcquiredNanos = System.nanoTime() - IndexStore.SEARCH_IDLE_NANOS;
  // one volatile: failed() reads it without the monitor a roll holds, and sees no half-made roll
  private volatile BucketState state = BucketState.HOT;
  private volatile long minTime;
  private volatile long maxTime;
  private volatile long events;
  private volatile long maxSequence;
  private final BucketCompaction compaction;
  private AbortableMergeScheduler mergeScheduler; // hot
  // full: takes no event, compacts ahead of its roll (compactBeforeRoll started one)
  private volatile boolean waitingForRoll;

  private Bucket(
      long id,
      Path path,
      Directory directory,
      long created,
      BucketFormat.Recorded recorded,
      CompactionMergePolicy compaction) {
    this.id = id;
    this.path = path;
    this.directory = directory;
    this.created = created;
    this.format = recorded.format();
    this.termFilters = recorded.termFilters();
    this.compaction = new BucketCompaction(compaction);
  }

  /** Opens a bucket directory: warm when it has a manifest, hot (writable) otherwise. */
  static Bucket open(long id, Path path, IndexOptions options, long now) throws IOException {
    return open(id, path, options, now, FSDirectory::open);
  }

  /** Opens a bucket through a directory factory; tests pass one that injects I/O faults. */
  static Bucket open(
      long id, Path path, IndexOptions options, long now, DirectoryFactory directories)
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
                null);
        bucket.state = BucketState.WARM;
        bucket.minTime = manifest.minTime();
        bucket.maxTime = manifest.maxTime();
        bucket.events = manifest.events();
        bucket.maxSequence = manifest.maxSequence();
        return bucket;
      }
      if (recorded == null) { // a new bucket takes the configured format; an older one held events
        BucketFormat format =
            DirectoryReader.indexExists(directory) ? BucketFormat.EVENTS : options.format();
        recorded =
            format == BucketFormat.BLOCKS
                ? format.record(path)
                : new BucketFormat.Recorded(BucketFormat.EVENTS, 1);
      }
      CompactionMergePolicy policy = HotBucketConfig.compactionPolicy(options);
      Bucket bucket = new Bucket(id, path, directory, now, recorded, policy);
      bucket.mergeScheduler = new AbortableMergeScheduler();
      IndexWriterConfig config =
          HotBucketConfig.of(options, recorded, bucket.compaction, bucket.mergeScheduler);
      bucket.writer = new IndexWriter(directory, config);
      bucket.searchers = new SearcherManager(bucket.writer, null);
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
    minTime = bounds.minTime();
    maxTime = bounds.maxTime();
    maxSequence = bounds.maxSequence();
    events = bounds.events();
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
    return state.displayName(waitingForRoll);
  }

  long minTime() {
    return minTime;
  }

  long maxTime() {
    return maxTime;
  }

  long events() {
    return events;
  }

  long maxSequence() {
    return maxSequence;
  }

  long created() {
    return created;
  }

  /** How this bucket lays out its events (fixed when it was created). */
  BucketFormat format() {
    return format;
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
    return events > 0 && maxTime >= earliest && minTime < latest;
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
    synchronized (statistics) {
      if (oldest < minTime) {
        minTime = oldest;
      }
      if (newest > maxTime) {
        maxTime = newest;
      }
    }
    writer.addDocument(document);
    compaction.added();
    refreshes.added();
    synchronized (statistics) {
      events += count;
      if (lastSequence > maxSequence) {
        maxSequence = lastSequence;
      }
    }
  }

  /**
   * Sets, in {@code into}, bit {@code s - low} for every sequence number {@code s} in {@code [low,
   * high]} that this bucket holds.
   */
  void collectSequences(long low, long high, java.util.BitSet into) throws IOException {
    if (events == 0) {
      return;
    }
    IndexSearcher searcher = acquire();
    try {
      for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
        if (format == BucketFormat.BLOCKS) {
          BlockSequences.collect(leaf.reader(), low, high, into);
        } else {
          EventSequences.collect(leaf.reader(), low, high, into);
        }
      }
    } finally {
      release(searcher);
    }
  }

  /** A counter bumped after every add; pass it to {@link #refresh(long)}. */
  long addedGeneration() {
    return refreshes.addedGeneration();
  }

  /**
   * Makes every add up to {@code generation} searchable (a no-op once the bucket is warm), sharing
   * the refresh with concurrent callers ({@link SharedRefresh}).
   */
  void refresh(long generation) throws IOException {
    refreshes.refresh(generation, this::reopenSearchers);
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
    writer.commit();
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
   * Starts a compaction of the hot bucket in the background when it is due ({@link
   * BucketCompaction#startIfDue}) and the node has a permit for it ({@link CompactionPermits});
   * none once it is not hot.
   *
   * @return whether it started one
   */
  boolean compactIfDue(CompactionSettings settings, CompactionPermits node) throws IOException {
    IndexWriter current = writer;
    if (state != BucketState.HOT || current == null) {
      return false;
    }
    return compaction.startIfDue(
        current,
        settings,
        () -> state == BucketState.HOT && !waitingForRoll,
        this::reopenSearchers,
        start -> node.start(this, start) == CompactionPermits.Started.MERGING);
  }

  /** Reopens the hot bucket's searchers on what its writer holds now (a no-op once warm). */
  private void reopenSearchers() throws IOException {
    SearcherManager current;
    synchronized (this) {
      current = state == BucketState.WARM ? null : searchers;
    }
    if (current != null) {
      try {
        current.maybeRefreshBlocking();
      } catch (org.apache.lucene.store.AlreadyClosedException closed) {
        // rolled to warm meanwhile: its events are committed and seen through the warm reader;
        // but a writer Lucene closed on a tragic exception (a failed merge or flush) is no roll
        if (failed()) {
          throw writerFailed(closed);
        }
      }
    }
  }

  /**
   * The error a search of a bucket whose writer failed gets: its last searcher may miss
   * acknowledged events, so it is not answered from (the index recovers the bucket, {@code
   * IndexWrites.recover}, at its next search, add or commit).
   */
  private IOException writerFailed(Throwable cause) {
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

  /**
   * Starts compacting the bucket in the background ahead of its roll ({@link
   * BucketCompaction#startForRoll}) once the node has a permit for it ({@link CompactionPermits}):
   * the bucket no longer takes events and is committed.
   *
   * @param mayStart false while the index backs off after a failed compaction ({@code
   *     IndexCompaction}): the bucket waits for its roll without starting one, unless nothing is
   *     left to compact (its roll then merges nothing)
   * @return whether the roll waits: a merge runs now ({@link #compactionMerging}), the node's
   *     permits are taken, or {@code mayStart} is false and fast segments are left (false with
   *     compaction inline: the roll compacts)
   */
  boolean compactBeforeRoll(CompactionPermits node, boolean mayStart) throws IOException {
    IndexWriter current = writer;
    if (state != BucketState.HOT || current == null) {
      return false;
    }
    waitingForRoll = true;
    if (compaction.policy() == null) {
      return false;
    }
    if (!mayStart) {
      // the back-off holds back merges; a bucket compacted ahead has none left: its roll commits
      return compaction.mergingForRoll(current) || compaction.pendingBytes() > 0;
    }
    return node.startForRoll(
            this, () -> compaction.startForRoll(current, () -> state == BucketState.HOT))
        != CompactionPermits.Started.NOTHING;
  }

  /**
   * Whether a merge the roll waits for is registered or running now ({@link
   * BucketCompaction#mergingForRoll}).
   */
  boolean compactionMerging() {
    IndexWriter current = writer;
    return state != BucketState.WARM && current != null && compaction.mergingForRoll(current);
  }

  /**
   * Whether the bucket keeps the node's permit it took for a compaction ({@link
   * CompactionPermits}): its writer is open (not rolled, failed or closed) and it waits for its
   * roll, or (an idle or bounded compaction) a compaction's merge of it is registered or running.
   */
  boolean holdsCompactionPermit() {
    return (waitsForRoll() || state != BucketState.WARM && compaction.merging()) && !failed();
  }

  /**
   * Whether the bucket waits for its roll ({@link #compactBeforeRoll} was asked): its last commit
   * holds fast segments (and, while its compaction runs, its directory the compact ones replacing
   * them) until the roll commits its compact ones.
   */
  boolean waitsForRoll() {
    return waitingForRoll && state != BucketState.WARM;
  }

  /**
   * Whether the bucket's writer failed (a tragic exception) after a compaction was started and
   * before one finished: the index backs off its next compaction ({@code IndexCompaction}).
   */
  boolean compactionFailed() {
    return compaction.failed(writer);
  }

  /** Bytes of the hot bucket's segments still waiting for compaction (0 when not deferred). */
  long compactionPendingBytes() {
    return state == BucketState.WARM ? 0 : compaction.pendingBytes();
  }

  /**
   * Whether a compaction of this bucket runs now, or (a hot bucket's) its searchers do not see one
   * that ended: a bucket waiting for its roll reopens its searchers only in the roll.
   */
  boolean compacting() {
    return state != BucketState.WARM
        && (waitingForRoll ? compaction.merging() : compaction.running());
  }

  /**
   * Whether a compaction of this bucket will start or end without more events: a hot bucket's when
   * {@link BucketCompaction#due}, and a full bucket's until it rolled (waiting for its roll, its
   * fast and compact segments are both on disk until the roll's merge and commit).
   */
  boolean compactionDue(CompactionSettings settings) {
    BucketState now = state;
    if (now == BucketState.ROLLING || now != BucketState.WARM && waitingForRoll) {
      return true; // full: its roll (a forced merge) runs without more events
    }
    IndexWriter current = writer;
    if (now != BucketState.HOT || current == null) {
      return false;
    }
    try {
      return compaction.due(settings, current.ramBytesUsed());
    } catch (org.apache.lucene.store.AlreadyClosedException rolled) {
      return false; // rolled meanwhile (the roll compacts) or failed (recovery reopens it)
    }
  }

  /**
   * Counts this bucket's compaction merges in the index's {@code counter} from now on: before the
   * bucket takes part in the index (none starts before {@link #compactIfDue} or the roll).
   */
  void countCompactionsIn(CompactionCounter counter) {
    compaction.countIn(counter);
  }

  private void rollToWarm() throws IOException {
    // nothing left to merge, unless a natural merge ended meanwhile
    writer.forceMerge(CompactionMergePolicy.ROLL_SEGMENTS);
    writer.commit();
    IOUtils.close(searchers, writer);
    searchers = null;
    writer = null;
    new BucketManifest(minTime, maxTime, events, maxSequence, created).write(path);
  }

  /**
   * A searcher over the bucket; give it back with {@link #release}. For the hot bucket it first
   * refreshes when events were added since the last refresh, so a search sees every event
   * acknowledged before it started (read your writes); the refresh is shared with concurrent
   * searches and the background refresher.
   */
  IndexSearcher acquire() throws IOException {
    lastAcquiredNanos = System.nanoTime();
    if (state != BucketState.WARM) {
      refresh(refreshes.addedGeneration());
      if (failed()) { // no refresh was due, but the searcher it has may be older than the failure
        throw writerFailed(null);
      }
    }
    return acquireCurrent();
  }

  /**
   * How long ago a searcher was last asked for ({@link IndexStore#SEARCH_IDLE_NANOS} more than
   * since the bucket opened, if never: search idle from the start).
   */
  long nanosSinceAcquired() {
    return System.nanoTime() - lastAcquiredNanos;
  }

  /** Whether events were added since the last refresh. */
  boolean needsRefresh() {
    return state != BucketState.WARM && refreshes.needed();
  }

  private synchronized IndexSearcher acquireCurrent() throws IOException {
    if (state != BucketState.WARM) {
      return searchers.acquire();
    }
    if (reader == null) {
      reader = DirectoryReader.open(directory);
    }
    reader.incRef();
    return new IndexSearcher(reader);
  }

  synchronized void release(IndexSearcher searcher) throws IOException {
    if (searchers != null && state != BucketState.WARM) {
      searchers.release(searcher);
    } else {
      searcher.getIndexReader().decRef();
    }
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
    IOUtils.close(searchers, writer, reader, directory);
  }

  /** Opens the Lucene directory of a bucket path. */
  @FunctionalInterface
  interface DirectoryFactory {
    Directory open(Path path) throws IOException;
  }
}
