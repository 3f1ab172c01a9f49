package io.quarry.codecs.store;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.wal.EncodedBatch;
import io.quarry.codecs.wal.WriteAheadLog;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.lucene.store.FSDirectory;

/**
 * One Quarry index on disk: {@code buckets/<id>/}, each a Lucene index of a time range written with
 * {@link io.quarry.codecs.journal.QuarryCodec} (the journal holds {@code _raw}), and {@code wal/},
 * the write-ahead log.
 *
 * <p><b>Writes.</b> A batch gets consecutive sequence numbers and is appended to the log in one
 * step (so log order is sequence order); then it is added to the hot bucket, concurrently with
 * other batches (Lucene indexes on every writing thread); then the caller waits for the log's group
 * fsync. When {@link #add} returns the batch survives a crash. It is searchable by every search
 * that starts afterwards: opening the hot bucket for a search refreshes it when anything was added
 * since the last refresh (shared between concurrent searches), and a background refresh every
 * second keeps that cheap while the index is being searched. An index nobody searched for {@link
 * #SEARCH_IDLE_NANOS} — or at all since its hot bucket opened — is not refreshed in the background
 * (Elasticsearch's "search idle"): its writes flush whole RAM buffers into fewer, larger segments,
 * which saves the refreshes and the merges of small segments, and the next search pays one refresh.
 * Writers never wait for a refresh, so a stream of small batches does not turn into a stream of
 * tiny segments.
 *
 * <p><b>Commits.</b> Every {@code commitInterval} the log is rolled to a new file, with only the
 * appends to the log paused for the roll's fsync; the adds that appended to the old file are
 * counted ({@link InFlightAdds}) and the commit waits for that count to drain — while the adds of
 * the new file go on — then the hot bucket commits and the older log files, all of whose events
 * were added by then, are deleted. Events added while a commit runs may or may not be in it, so
 * recovery replays exactly the log events whose {@code _seq} is not in any bucket: every
 * acknowledged event is in the index exactly once.
 *
 * <p><b>Buckets.</b> The hot bucket rolls to warm (merged, read-only, bounds in its manifest) when
 * it holds {@code maxBucketEvents} events or is {@code maxHotAge} old: a new hot bucket takes the
 * writes, the full one is committed and, with compaction deferred, compacted in the background
 * (Lucene's merge threads) into the roll's own segments, once the node grants it one of its {@link
 * CompactionPermits} permits; a later commit rolls it once no merge of its writer runs, so the
 * roll's forced merge, which holds the index's commit lock on the store's one scheduler thread,
 * merges nothing. When the hot bucket fills while an older full bucket still waits, it goes on
 * taking events past its limit ({@link FullBucketRolls#anyWaiting}), so no scheduled roll compacts
 * under the commit lock and the node compacts at most its permits' buckets at once; at twice its
 * limits it waits for its roll too and a new hot bucket opens ({@link FullBucketRolls#overrun}), so
 * no bucket grows without bound when ingest outruns compaction. A roll that fails is retried with a
 * back-off and does not hold up the hot bucket's commit. A close leaves a waiting bucket as it is;
 * the next open starts its compaction again and does not wait for it. Searches open only buckets
 * whose time bounds overlap their range. Retention deletes whole warm buckets, oldest first, past
 * {@code maxAge} or while the index exceeds {@code maxTotalBytes}, never for the bytes of a
 * compaction ({@link Retention}).
 *
 * <p><b>Locks</b>, always taken in this order: {@code commitLock} (commits, rolls, conversion,
 * close), {@link #addLock} (its read side for adds and the log's roll, its write side for {@link
 * #recover}, under which {@link LogRecovery} reopens failed buckets and replays the log), {@code
 * sequenceLock} (sequence numbers with the log append; the roll's swap of the log, the hot bucket
 * and {@link InFlightAdds}).
 */
public final class IndexStore implements Closeable {
  private static final Logger LOG = Logger.getLogger(IndexStore.class.getName());

  private final String name;
  private final Path bucketsPath;
  private final IndexOptions options;
  private final EventDocuments eventDocuments; // the event layout's documents

  private final Clock clock;
  private final Bucket.DirectoryFactory directories;
  private final BlockDocuments blocks;
  private final WriteAheadLog wal;
  private final CopyOnWriteArrayList<Bucket> buckets = new CopyOnWriteArrayList<>();

  /**
   * Adds and the commit's roll of the log hold the read side; rebuilding failed buckets ({@link
   * #recover}) holds the write side.
   */
  private final ReentrantReadWriteLock addLock = new ReentrantReadWriteLock();

  /** Makes sequence assignment and the log append one step. */
  private final Object sequenceLock = new Object();

  private final Object commitLock = new Object();
  private final ScheduledFuture<?> committer;
  private final ScheduledFuture<?> refresher;
  private final ScheduledFuture<?> compactor;

  /** How often added events are made visible in the background (searches also refresh). */
  static final long REFRESH_INTERVAL_MILLIS = 1000;

  /** No background refresh for an index no search opened for this long (Elasticsearch: 30 s). */
  static final long SEARCH_IDLE_NANOS = TimeUnit.SECONDS.toNanos(30);

  private final DamagedBuckets damaged;
  private final List<io.quarry.codecs.wal.WriteAheadLog.Damage> walDamage;
  private volatile Bucket hot;
  private long nextSequence; // guarded by sequenceLock

  /**
   * The adds that appended to the current log generation and may still be adding to the hot bucket
   * (guarded by sequenceLock): the commit's roll starts a new count, then waits for the old one to
   * drain instead of taking the write side of {@link #addLock}, which had held up both ingest
   * threads for the adds' indexing in progress at every commit.
   */
  private InFlightAdds inFlight = new InFlightAdds();

  private volatile boolean closed; // written under commitLock
  // close's last commit: no bucket rolls or starts a compaction (the next open takes them up)
  private boolean closing; // guarded by commitLock

  private final IndexCompaction compactions;
  private final FullBucketRolls rolls; // the full buckets' rolls, bounded by the node's permits
  private final LogRecovery recovery; // replays the log at open and after a write failure

  IndexStore(
      String name, Path path, IndexOptions options, ScheduledExecutorService scheduler, Clock clock)
      throws IOException {
    this(name, path, options, scheduler, clock, FSDirectory::open);
  }

  /** As above, with the factory of bucket directories (tests inject faults through it). */
  IndexStore(
      String name,
      Path path,
      IndexOptions options,
      ScheduledExecutorService scheduler,
      Clock clock,
      Bucket.DirectoryFactory directories)
      throws IOException {
    this(
        name,
        path,
        options,
        scheduler,
        clock,
        directories,
        new CompactionPermits(CompactionPermits.DEFAULT_PERMITS));
  }

  /**
   * As above, with the node's bound on compactions ahead of a roll, shared by its indexes ({@link
   * EventStore}).
   */
  IndexStore(
      String name,
      Path path,
      IndexOptions options,
      ScheduledExecutorService scheduler,
      Clock clock,
      Bucket.DirectoryFactory directories,
      CompactionPermits permits)
      throws IOException {
    this.name = requireNonNull(name, "name is null");
    this.directories = requireNonNull(directories, "directories is null");
    this.options = requireNonNull(options, "options is null");
    this.compactions =
        new IndexCompaction(name, options.compaction(), requireNonNull(permits, "permits is null"));
    this.rolls = new FullBucketRolls(name, buckets, compactions, options);
    this.blocks = new BlockDocuments(options);
    this.eventDocuments = new EventDocuments(name, options);
    this.clock = requireNonNull(clock, "clock is null");
    this.bucketsPath = path.resolve("buckets");
    this.damaged = new DamagedBuckets(name, bucketsPath);
    Files.createDirectories(bucketsPath);
    this.recovery = new LogRecovery(name, options, directories, compactions, buckets, this::addTo);
    try {
      BucketOpening opened =
          BucketOpening.open(
              name, bucketsPath, options, clock.millis(), directories, damaged, permits);
      opened.buckets().forEach(compactions::join);
      buckets.addAll(opened.buckets());
      hot = opened.hot();
      LogRecovery.Opened log = recovery.openLog(path, hot);
      this.walDamage = log.log().damage();
      this.nextSequence = log.nextSequence();
      this.wal = log.log();
    } catch (IOException | RuntimeException e) {
      org.apache.lucene.util.IOUtils.closeWhileHandlingException(buckets);
      throw e;
    }
    long interval = options.commitInterval().toMillis();
    this.committer =
        scheduler.scheduleWithFixedDelay(
            this::scheduledMaintenance, interval, interval, TimeUnit.MILLISECONDS);
    this.refresher =
        scheduler.scheduleWithFixedDelay(
            this::scheduledRefresh,
            REFRESH_INTERVAL_MILLIS,
            REFRESH_INTERVAL_MILLIS,
            TimeUnit.MILLISECONDS);
    this.compactor =
        scheduler.scheduleWithFixedDelay(
            this::scheduledCompaction,
            REFRESH_INTERVAL_MILLIS,
            REFRESH_INTERVAL_MILLIS,
            TimeUnit.MILLISECONDS);
  }

  public String name() {
    return name;
  }

  /** The directory of bucket {@code id} (for {@code | dbinspect}'s path). */
  public Path bucketPath(long id) {
    return bucketsPath.resolve(Long.toString(id));
  }

  /**
   * Rebuilds writers lost to an I/O failure (a full disk, a failed flush or roll) without a restart
   * ({@link LogRecovery}: each failed bucket is reopened from its last commit and the log is
   * replayed into the hot bucket) under the write side of {@link #addLock}. Throws when the disk
   * still fails; the next write tries again.
   *
   * <p>Looked at first without the lock: every add calls this, and taking the write side each time
   * waited for the add in progress to finish indexing, so two ingest threads never indexed at once
   * (a bucket failing after the look fails that add, as one failing during it always did).
   */
  private void recover() throws IOException {
    if (closed || buckets.stream().noneMatch(Bucket::failed)) {
      return;
    }
    addLock.writeLock().lock();
    try {
      if (closed || buckets.stream().noneMatch(Bucket::failed)) {
        return;
      }
      hot = recovery.reopenFailed(hot);
      long replayed = recovery.replayLog(wal, hot);
      LOG.warning(
          "index "
              + name
              + ": recovered from a write failure; "
              + replayed
              + " logged events re-added");
    } finally {
      addLock.writeLock().unlock();
    }
  }

  /** Quarantines a bucket found damaged while searching; returns a warning for the search. */
  String quarantine(Bucket bucket, Exception cause) {
    if (buckets.remove(bucket)) {
      closeQuietly(bucket, cause);
      damaged.moveQuietly(bucket, cause);
    }
    return damaged.warning(bucket, cause);
  }

  /**
   * WAL files found damaged (not merely torn) when the index opened, now in {@code quarantine/}:
   * acknowledged events from the damage on in each are missing from the index.
   */
  public List<io.quarry.codecs.wal.WriteAheadLog.Damage> walDamage() {
    return walDamage;
  }

  /**
   * Whether this index's write-ahead log stopped accepting writes after an fsync failed (it fails
   * stop until the server restarts): the index takes no events.
   */
  public boolean walFailed() {
    return wal != null && wal.failed();
  }

  /** Buckets quarantined since the store opened. */
  public long quarantinedBuckets() {
    return damaged.count();
  }

  /**
   * The events with their ASCII texts' bytes known ({@link Event#withAsciiBytes}): the list itself
   * when every event holds its range already (a broken body's), else a copy.
   */
  private static List<Event> withAsciiBytes(List<Event> events) {
    List<Event> out = null;
    for (int i = 0; i < events.size(); i++) {
      Event event = events.get(i);
      Event known = event.withAsciiBytes();
      if (known != event && out == null) {
        out = new ArrayList<>(events.subList(0, i));
      }
      if (out != null) {
        out.add(known);
      }
    }
    return out == null ? events : out;
  }

  /**
   * Stores events: returns once they are durable (fsync'd to the log); every search started after
   * that sees them. Each event is checked first ({@link #problem}): one that cannot be stored
   * stores none of the batch.
   *
   * @return the UTF-8 bytes of the events' raw texts
   * @throws InvalidEventException naming the first event that cannot be stored
   */
  public long add(List<Event> events) throws IOException {
    if (events.isEmpty()) {
      return 0;
    }
    for (int i = 0; i < events.size(); i++) {
      String problem = problem(events.get(i));
      if (problem != null) {
        throw new InvalidEventException(i, problem);
      }
    }
    recover();
    // each _raw's bytes once, for the log, the block and its terms: an event broken from a body
    // holds its range of it already; another ASCII text is encoded here
    events = withAsciiBytes(events);
    EncodedBatch encoded = EncodedBatch.reusing(events);
    long position;
    addLock.readLock().lock();
    try {
      long first;
      Bucket target;
      InFlightAdds adds;
      synchronized (sequenceLock) {
        first = nextSequence;
        try {
          position = wal.append(first, encoded);
        } finally {
          encoded.giveBack(); // written (or cut back): the array may take another batch
        }
        nextSequence = first + events.size();
        target = hot; // the bucket of the log generation appended to
        adds = inFlight;
        adds.enter();
      }
      try {
        addTo(target, events, first);
      } finally {
        adds.leave();
      }
    } finally {
      addLock.readLock().unlock();
    }
    wal.sync(position);
    return encoded.rawBytes();
  }

  /**
   * Throws {@link WriteAheadLog.RecordTooLarge} when {@link #add} would refuse {@code events} as
   * one batch too large for a record of this index's log ({@link IndexOptions#maxRecordBytes});
   * stores nothing. For a caller that writes one request's events to several indexes and decides
   * every refusal before the first is written. Encodes the batch to measure it.
   */
  public void requireFits(List<Event> events) throws IOException {
    WriteAheadLog.requireFits(EncodedBatch.of(withAsciiBytes(events)), wal.maxRecordBytes());
  }

  /** Adds a batch to a bucket in its layout: a document per event, or per block of events. */
  private void addTo(Bucket target, List<Event> events, long firstSequence) throws IOException {
    if (target.format() == BucketFormat.BLOCKS) {
      blocks.add(target, events, firstSequence);
      return;
    }
    for (int i = 0; i < events.size(); i++) {
      Event event = events.get(i);
      long sequence = firstSequence + i;
      target.add(
          eventDocuments.of(event, sequence), event.timeMicros(), event.timeMicros(), 1, sequence);
    }
  }

  /**
   * Refreshes the hot bucket so the next search's own refresh is cheap, unless nobody searched it
   * for {@link #SEARCH_IDLE_NANOS}; runs every {@link #REFRESH_INTERVAL_MILLIS}.
   */
  private void scheduledRefresh() {
    Bucket current = hot;
    try {
      if (current.needsRefresh() && current.nanosSinceAcquired() < SEARCH_IDLE_NANOS) {
        current.refresh(Long.MAX_VALUE);
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.FINE, "index " + name + ": background refresh failed", e);
    }
  }

  /**
   * Starts the compaction ahead of the roll of a full bucket that waited for a permit, then the hot
   * bucket's deferred compaction when it is due ({@link IndexCompaction}).
   */
  private void scheduledCompaction() {
    if (!closed) {
      rolls.startWaiting(hot); // full buckets first: their wait holds back a roll
      compactions.startIfDue(hot);
    }
  }

  /** Where the deferred compaction of this index's buckets stands. */
  public CompactionStatus compaction() {
    return compactions.status(buckets);
  }

  /** Commits to Lucene everything added so far and drops the log files that covered it. */
  public void commit() throws IOException {
    synchronized (commitLock) {
      if (closed) {
        return;
      }
      commitLocked(false, false);
    }
  }

  /**
   * Rolls the log, commits the hot bucket and deletes the covered log files; with {@code
   * rollBucket} a new hot bucket takes writes and the full one turns warm: now with {@code
   * waitForRoll}, else once its compaction (started now, in the background) ended — a bucket past
   * its hot time whose compaction ended is rolled by each call ({@link
   * FullBucketRolls#rollWaiting}). Without {@code waitForRoll} the hot bucket does not roll while
   * an older full bucket still waits for its roll: it takes events past its limit until that one
   * rolled, and a roll's failure delays neither the commit nor the deletion of the log files.
   */
  private void commitLocked(boolean rollBucket, boolean waitForRoll) throws IOException {
    recover();
    if (!closing) {
      rolls.rollWaiting(hot, waitForRoll);
      if (rollBucket
          && !waitForRoll
          && rolls.anyWaiting(hot)
          && !rolls.overrun(hot, clock.millis())) {
        rollBucket = false;
      }
    }

    if (!hot.hasUncommittedChanges() && !rollBucket) {
      return;
    }
    long generation;
    Bucket committing;
    Bucket next = null;
    if (rollBucket) {
      long id = hot.id() + 1;
      next =
          Bucket.open(
              id, bucketsPath.resolve(Long.toString(id)), options, clock.millis(), directories);
    }
    InFlightAdds appendedBefore;
    // the read side keeps recover() from swapping buckets meanwhile, and lets adds go on: only
    // the appends wait, for the roll's fsync; the adds of the old generation are waited for below
    addLock.readLock().lock();
    try {
      synchronized (sequenceLock) {
        generation = wal.roll();
        committing = hot;
        if (next != null) {
          compactions.join(next);
          buckets.add(next);
          hot = next;
        }
        appendedBefore = inFlight;
        inFlight = new InFlightAdds();
      }
    } catch (IOException | RuntimeException e) {
      if (next != null && hot != next) {
        closeQuietly(next, e);
      }
      throw e;
    } finally {
      addLock.readLock().unlock();
    }
    // every event logged before the roll is in the bucket before it is committed and the log
    // files that hold it are deleted
    appendedBefore.awaitNone();
    if (rollBucket && waitForRoll) {
      rolls.roll(committing);
    } else if (rollBucket) {
      committing.commit();
      rolls.compactOrRoll(committing);
    } else {
      committing.commit();
    }
    wal.deleteBefore(generation);
  }

  /** Periodic work: commit, roll the hot bucket when it is full or old, apply retention. */
  private void scheduledMaintenance() {
    try {
      synchronized (commitLock) {
        if (closed) {
          return;
        }
        Bucket current = hot;
        boolean full =
            current.events() >= options.maxBucketEvents()
                || (current.events() > 0
                    && clock.millis() - current.created() >= options.maxHotAge().toMillis());
        commitLocked(full, false);
      }
      applyRetention();
    } catch (IOException | RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "index " + name + ": background commit failed; the log still holds the events",
          e);
    }
  }

  /** Rolls the hot bucket to warm now (also used by tests and, later, by an admin command). */
  public void rollHotBucket() throws IOException {
    synchronized (commitLock) {
      if (!closed) {
        commitLocked(true, true);
      }
    }
  }

  /**
   * Rewrites every warm bucket of the event layout in the block layout this index is configured for
   * ({@code quarry reindex}; {@link BucketConversion} says how, and how a crash is undone). A hot
   * bucket of the event layout rolls to warm first, so it is converted too, and a new hot bucket of
   * the block layout takes writes. Meant for a stopped server: searches running meanwhile would
   * find a converted bucket closed under them.
   *
   * @param progress told the bucket being converted and the events written from it so far
   * @return one result per bucket converted, oldest first
   * @throws IllegalStateException when the index is not configured for the block layout
   */
  public List<BucketConversion.Result> convertToBlocks(BucketProgress progress) throws IOException {
    if (options.format() != BucketFormat.BLOCKS) {
      throw new IllegalStateException(
          "index "
              + name
              + " is configured for the "
              + options.format().configName()
              + " layout: set storage.indexes."
              + name
              + ".format: blocks first");
    }
    synchronized (commitLock) {
      if (closed) {
        throw new IllegalStateException("index " + name + " is closed");
      }
      if (hot.format() != BucketFormat.BLOCKS) {
        commitLocked(true, true);
      }
      return BucketConversion.convertWarm(name, buckets, options, blocks, directories, progress);
    }
  }

  /** Where a conversion stands: told after each window of events written. */
  @FunctionalInterface
  public interface BucketProgress {
    void at(long bucket, long eventsWritten);
  }

  /**
   * Deletes warm buckets past the index's retention, oldest first ({@link Retention}).
   *
   * @return the number of buckets deleted
   */
  public int applyRetention() throws IOException {
    return Retention.apply(name, options, clock.millis() * 1000, buckets);
  }

  /**
   * The buckets whose time bounds overlap {@code [earliest, latest)}, after recovering any whose
   * writer failed ({@link #recover}): a search never answers from a failed bucket's last searcher,
   * which may miss acknowledged events.
   */
  List<Bucket> bucketsOverlapping(long earliest, long latest) throws IOException {
    recover();
    return BucketListing.overlapping(buckets, earliest, latest);
  }

  int bucketCount() {
    return buckets.size();
  }

  /** Every bucket, for statistics. */
  public List<BucketInfo> buckets() throws IOException {
    return BucketListing.infos(buckets);
  }

  /**
   * The bytes of every bucket's searchable segments by what they hold: {@code journal}, {@code
   * terms}, {@code postings}, {@code docValues}, {@code points}, {@code other}.
   */
  public Map<String, Long> bytesByKind() throws IOException {
    return BucketListing.bytesByKind(buckets);
  }

  /**
   * Whether some bucket of this index stores its events as blocks ({@link BucketFormat#BLOCKS}),
   * now or later in this process: then a term query only finds candidate blocks, and a search must
   * check each event against its filter and take no shortcut that counts documents as events.
   */
  public boolean holdsBlocks() {
    return options.format() == BucketFormat.BLOCKS
        || buckets.stream().anyMatch(bucket -> bucket.format() == BucketFormat.BLOCKS);
  }

  /** The number of events in the index. */
  public long count() {
    return buckets.stream().mapToLong(Bucket::events).sum();
  }

  /**
   * Checks that an event can be stored in this index ({@link EventCheck}).
   *
   * @return the problem, or null when the event is acceptable
   */
  public String problem(Event event) {
    return EventCheck.problem(options, event);
  }

  /** Commits, then closes every bucket and the log. */
  @Override
  public void close() throws IOException {
    committer.cancel(false);
    refresher.cancel(false);
    compactor.cancel(false);
    synchronized (commitLock) {
      if (closed) {
        return;
      }
      try {
        closing = true;
        commitLocked(false, false);
      } finally {
        closed = true;
        // every acknowledged event is committed or in the log: running merges (a compaction) are
        // aborted, not waited for
        List<Closeable> closeables = new ArrayList<>();
        for (Bucket bucket : buckets) {
          closeables.add(bucket::closeAbortingMerges);
        }
        closeables.add(wal);
        org.apache.lucene.util.IOUtils.close(closeables);
      }
    }
  }

  private static void closeQuietly(Bucket bucket, Exception cause) {
    try {
      bucket.close();
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
    }
  }
}
