package io.quarry.codecs.store;

import static java.util.Objects.requireNonNull;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One Quarry index on disk: {@code buckets/<id>/}, each a Lucene index of a time range written with
 * {@link io.quarry.codecs.journal.QuarryCodec} (the journal holds {@code _raw}), and {@code wal/},
 * the write-ahead log.
 *
 * <p><b>Writes</b> ({@link IndexWrites}) are durable when {@link #add} returns, and searchable by
 * every search that starts afterwards: opening the hot bucket for a search refreshes it when
 * anything was added since the last refresh (shared between concurrent searches), and a background
 * refresh every second keeps that cheap while the index is being searched. An index nobody searched
 * for {@link #SEARCH_IDLE_NANOS} — or at all since its hot bucket opened — is not refreshed in the
 * background (Elasticsearch's "search idle"): its writes flush whole RAM buffers into fewer, larger
 * segments, which saves the refreshes and the merges of small segments, and the next search pays
 * one refresh. Writers never wait for a refresh, so a stream of small batches does not turn into a
 * stream of tiny segments.
 *
 * <p><b>Commits and rolls</b>: {@link IndexCommits}; the periodic ones, the background refresh and
 * the compaction check: {@link IndexMaintenance}. Searches open only buckets whose time bounds
 * overlap their range. Retention deletes whole warm buckets, oldest first, past {@code maxAge} or
 * while the index exceeds {@code maxTotalBytes}, never for the bytes of a compaction ({@link
 * Retention}).
 */
public final class IndexStore implements Closeable {
  private final String name;
  private final Path bucketsPath;
  private final IndexOptions options;
  private final Clock clock;
  private final CopyOnWriteArrayList<Bucket> buckets = new CopyOnWriteArrayList<>();
  private final BatchLayouts layouts;
  private final IndexWrites writes;
  private final IndexCommits commits;

  private final IndexMaintenance maintenance; // the periodic commit, refresh and compaction check

  /** How often added events are made visible in the background (searches also refresh). */
  static final long REFRESH_INTERVAL_MILLIS = 1000;

  /** No background refresh for an index no search opened for this long (Elasticsearch: 30 s). */
  static final long SEARCH_IDLE_NANOS = TimeUnit.SECONDS.toNanos(30);

  private final DamagedBuckets damaged;
  private final List<io.quarry.codecs.wal.WriteAheadLog.Damage> walDamage;
  private final IndexCompaction compactions;

  IndexStore(
      String name, Path path, IndexOptions options, ScheduledExecutorService scheduler, Clock clock)
      throws IOException {
    this(name, path, options, scheduler, clock, BucketDirectories.DEFAULT);
  }

  /** As above, with the factory of bucket directories (tests inject faults through it). */
  IndexStore(
      String name,
      Path path,
      IndexOptions options,
      ScheduledExecutorService scheduler,
      Clock clock,
      BucketDirectories directories)
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
   * As above, with the node's bound on compactions ahead of a roll, shared by its indexes, the
   * periodic work on {@code scheduler}'s single thread.
   */
  IndexStore(
      String name,
      Path path,
      IndexOptions options,
      ScheduledExecutorService scheduler,
      Clock clock,
      BucketDirectories directories,
      CompactionPermits permits)
      throws IOException {
    this(name, path, options, IndexScheduler.on(scheduler), clock, directories, permits);
  }

  /**
   * As above, the periodic work run by {@code scheduler} (an {@link EventStore}'s: the index's
   * queue on the node's {@link CommitterPool}).
   */
  IndexStore(
      String name,
      Path path,
      IndexOptions options,
      IndexScheduler scheduler,
      Clock clock,
      BucketDirectories directories,
      CompactionPermits permits)
      throws IOException {
    this.name = requireNonNull(name, "name is null");
    requireNonNull(directories, "directories is null");
    this.options = requireNonNull(options, "options is null");
    this.compactions =
        new IndexCompaction(name, options.compaction(), requireNonNull(permits, "permits is null"));
    this.layouts = new BatchLayouts(name, options);
    this.clock = requireNonNull(clock, "clock is null");
    this.bucketsPath = path.resolve("buckets");
    this.damaged = new DamagedBuckets(name, bucketsPath);
    Files.createDirectories(bucketsPath);
    LogRecovery recovery =
        new LogRecovery(name, options, directories, compactions, buckets, layouts::addTo);
    try {
      BucketOpening opened =
          BucketOpening.open(
              name, bucketsPath, options, clock.millis(), directories, damaged, permits);
      opened.buckets().forEach(compactions::join);
      buckets.addAll(opened.buckets());
      LogRecovery.Opened log = recovery.openLog(path, opened.hot());
      this.walDamage = log.log().damage();
      this.writes = new IndexWrites(name, buckets, layouts, recovery, log, opened.hot());
    } catch (IOException | RuntimeException e) {
      org.apache.lucene.util.IOUtils.closeWhileHandlingException(buckets);
      throw e;
    }
    this.commits =
        new IndexCommits(
            name, bucketsPath, options, clock, directories, buckets, compactions, writes);
    this.maintenance =
        new IndexMaintenance(
            name, options, scheduler, writes, commits, compactions, this::applyRetention);
  }

  public String name() {
    return name;
  }

  /** The options the index was opened with: its compression, bucket limits and retention. */
  public IndexOptions options() {
    return options;
  }

  /** The directory of bucket {@code id} (for {@code | dbinspect}'s path). */
  public Path bucketPath(long id) {
    return bucketsPath.resolve(Long.toString(id));
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
    return writes.log().failed();
  }

  /** Buckets quarantined since the store opened. */
  public long quarantinedBuckets() {
    return damaged.count();
  }

  /**
   * Stores events: returns once they are durable (fsync'd to the log); every search started after
   * that sees them. Each event is checked first ({@link #problem}): one that cannot be stored
   * stores none of the batch.
   *
   * @return the UTF-8 bytes of the events' raw texts
   * @throws InvalidEventException naming the first event that cannot be stored
   * @throws IndexBusyException when compaction lags too far behind ingest: nothing is stored
   */
  public long add(List<Event> events) throws IOException {
    return add(events, () -> {});
  }

  /**
   * {@link #add(List)}, running {@code indexed} once the batch is in the log and the hot bucket and
   * before the wait for the log's fsync (not when nothing is stored, nor when the write fails).
   */
  public long add(List<Event> events, Runnable indexed) throws IOException {
    LoggedBatch logged = append(events);
    if (events.isEmpty()) {
      return 0;
    }
    indexed.run();
    return logged.awaitDurable();
  }

  /**
   * The first half of {@link #add(List)}: checks the events, appends them to the log and adds them
   * to the hot bucket, without waiting for the log's fsync — the caller waits ({@link
   * LoggedBatch#awaitDurable}) before anything acknowledges them. What a request writing to several
   * indexes does, so each index's batch waits for its own log's fsync at the same time.
   *
   * @throws InvalidEventException naming the first event that cannot be stored (nothing appended)
   * @throws IndexBusyException when compaction lags too far behind ingest (nothing appended)
   */
  public LoggedBatch append(List<Event> events) throws IOException {
    if (events.isEmpty()) {
      return LoggedBatch.NONE;
    }
    for (int i = 0; i < events.size(); i++) {
      String problem = problem(events.get(i));
      if (problem != null) {
        throw new InvalidEventException(i, problem);
      }
    }
    requireAccepting();
    return writes.append(events);
  }

  /**
   * Throws {@link IndexBusyException} when {@link #add} would refuse a batch now because compaction
   * lags too far behind ingest; stores nothing. For a caller that writes one request's events to
   * several indexes and decides every routine refusal before the first is written (a waiting bucket
   * may still fill in between: {@link #add} checks again).
   */
  public void requireAccepting() throws IndexBusyException {
    Bucket hot = writes.hot();
    FullBucketRolls rolls = commits.rolls();
    if (rolls.backlogged(hot)) {
      throw new IndexBusyException(
          "index "
              + name
              + ": compaction lags behind ingest ("
              + rolls.waiting(hot)
              + " full buckets wait for their roll and the hot bucket holds "
              + hot.events()
              + " events, twice its maxBucketEvents)");
    }
  }

  /**
   * Throws {@link io.quarry.codecs.wal.WriteAheadLog.RecordTooLarge} when {@link #add} would refuse
   * {@code events} as one batch too large for a record of this index's log ({@link
   * IndexOptions#maxRecordBytes}); stores nothing. For a caller that writes one request's events to
   * several indexes and decides every refusal before the first is written. Counts the batch's
   * encoded bytes without encoding it.
   */
  public void requireFits(List<Event> events) throws IOException {
    writes.requireFits(events);
  }

  /** Where the deferred compaction of this index's buckets stands. */
  public CompactionStatus compaction() {
    return compactions.status(buckets);
  }

  /** Commits to Lucene everything added so far and drops the log files that covered it. */
  public void commit() throws IOException {
    commits.commit();
  }

  /** Rolls the hot bucket to warm now (also used by tests and, later, by an admin command). */
  public void rollHotBucket() throws IOException {
    commits.rollHotBucket();
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
    return commits.convertToBlocks(layouts.blocks(), progress);
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
   * writer failed ({@link IndexWrites#recover}): a search never answers from a failed bucket's last
   * searcher, which may miss acknowledged events.
   */
  List<Bucket> bucketsOverlapping(long earliest, long latest) throws IOException {
    writes.recover();
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
    maintenance.cancel();
    commits.close();
  }

  static void closeQuietly(Bucket bucket, Exception cause) {
    try {
      bucket.close();
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
    }
  }
}
