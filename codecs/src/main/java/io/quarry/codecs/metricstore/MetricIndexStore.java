package io.quarry.codecs.metricstore;

import static java.util.Objects.requireNonNull;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * One metric index: its log ({@code metric-wal/}), the hot bucket in memory, buckets being written
 * and the warm buckets ({@code metric-buckets/<id>/}).
 *
 * <p><b>Durability.</b> {@link #add} appends the batch to the log and into the hot bucket under one
 * lock (so the log's order is the hot bucket's), then waits for the shared fsync: when it returns
 * the points survive a crash and are visible to every search that starts afterwards. On open, every
 * log file not covered by a warm bucket is replayed into the hot bucket.
 *
 * <p><b>Buckets.</b> The hot bucket rolls at {@link MetricIndexOptions#maxBucketPoints} points or
 * {@link MetricIndexOptions#maxHotAge}: under the lock the log starts a new file and a new hot
 * bucket takes over; the old one is written out as a warm bucket (searches keep reading it in
 * memory meanwhile), then the log files it covers are deleted. Retention deletes warm buckets whose
 * newest point is older than {@link MetricIndexOptions#maxAge}.
 */
public final class MetricIndexStore implements Closeable {
  private static final Logger LOG = Logger.getLogger(MetricIndexStore.class.getName());

  private final String name;
  private final Path bucketsDirectory;
  private final Path logDirectory;
  private final BucketQuarantine quarantine;
  private final MetricIndexOptions options;
  private final Clock clock;
  private final MetricLog log;
  private final MetricBuckets buckets;
  private final Object rollLock = new Object();
  private final Object mergeLock = new Object();
  private final java.util.concurrent.atomic.AtomicLong nextBucketId =
      new java.util.concurrent.atomic.AtomicLong();
  private volatile BucketMerger.Hook mergeHook = BucketMerger.NONE;

  /**
   * Opens (creating) the metric index {@code name} in {@code directory}, replaying its log.
   *
   * @throws IOException also when the directory holds an event index's buckets
   */
  public MetricIndexStore(String name, Path directory, MetricIndexOptions options, Clock clock)
      throws IOException {
    this.name = requireNonNull(name, "name is null");
    this.options = requireNonNull(options, "options is null");
    this.clock = requireNonNull(clock, "clock is null");
    MetricBucketFormat.requireNoEventBuckets(name, directory);
    this.bucketsDirectory = directory.resolve("metric-buckets");
    this.logDirectory = directory.resolve("metric-wal");
    Files.createDirectories(bucketsDirectory);
    this.quarantine = new BucketQuarantine(name, directory.resolve("quarantine"));
    OpenedBuckets opened = OpenedBuckets.open(name, bucketsDirectory, quarantine);
    this.nextBucketId.set(opened.nextId());
    HotBucket replayed = new HotBucket(options.chunkPoints(), clock.millis());
    this.log =
        MetricLog.open(
            logDirectory,
            directory.resolve("quarantine"),
            opened.coveredGeneration(),
            (generation, points) -> replayed.add(points));
    this.buckets = new MetricBuckets(opened.live(), replayed);
    if (replayed.points() > 0) {
      LOG.info("metric index '" + name + "': replayed " + replayed.points() + " points");
    }
  }

  public String name() {
    return name;
  }

  /** The index's settings: its buckets' size and age, merges, retention ({@code maxAge}). */
  public MetricIndexOptions options() {
    return options;
  }

  /** The buckets found damaged (on open or by a search) and moved to quarantine, as messages. */
  public List<String> damage() {
    return quarantine.messages();
  }

  /** Stores points durably, as {@link #add(MetricBatch)}. */
  public void add(List<MetricPoint> points) throws IOException {
    add(MetricBatch.of(points));
  }

  /**
   * Stores a batch durably (it must not change afterwards): returns once its points survive a crash
   * and are visible to searches.
   *
   * @throws IOException when the log cannot be written or forced (nothing of the batch is then
   *     acknowledged; a failed fsync fails the index until a restart)
   */
  public void add(MetricBatch points) throws IOException {
    if (points.isEmpty()) {
      return;
    }
    MetricLog.Encoded record = MetricLog.record(points); // outside the lock: the costly part
    log.sync(buckets.append(log, record, points));
    if (rollDue()) {
      roll();
    }
  }

  private boolean rollDue() {
    return buckets.rollDue(
        options.maxBucketPoints(), options.maxHotAge().toMillis(), clock.millis());
  }

  /** Rolls, merges and applies retention when due; the store's scheduler calls this. */
  public void maintain() throws IOException {
    if (rollDue()) {
      roll();
    }
    merge();
    applyRetention();
  }

  /** Writes the hot bucket out as a warm bucket now (nothing when it is empty). */
  public void roll() throws IOException {
    synchronized (rollLock) {
      MetricBuckets.Frozen taken =
          buckets.freeze(log, () -> new HotBucket(options.chunkPoints(), clock.millis()));
      if (taken == null) {
        return;
      }
      HotBucket frozen = taken.bucket();
      long closedGeneration = taken.closedGeneration();
      long id = nextBucketId.getAndIncrement();
      Path written;
      frozen.lockAll(); // after the batches still encoding into it
      try {
        written =
            MetricBucketFormat.write(
                bucketsDirectory, id, MetricBucketFormat.of(frozen, id, closedGeneration));
      } finally {
        frozen.unlockAll();
      }
      buckets.written(frozen, WarmBucket.open(written));
      log.deleteThrough(closedGeneration);
    }
  }

  /**
   * Deletes warm buckets past {@link MetricIndexOptions#maxAge} (a merged bucket when its newest
   * point is; a search still reading one keeps it until it ends).
   */
  public void applyRetention() throws IOException {
    if (options.maxAge().isEmpty()) {
      return;
    }
    long cutoff = (clock.millis() - options.maxAge().get().toMillis()) * 1000;
    synchronized (mergeLock) {
      for (WarmBucket bucket : buckets.warm()) {
        if (bucket.maxTime < cutoff) {
          buckets.remove(bucket);
          bucket.drop();
          LOG.info(
              "metric index '"
                  + name
                  + "': bucket "
                  + bucket.id
                  + " deleted by retention (maxAge)");
        }
      }
    }
  }

  /** For tests: called after each step of a merge (it throws to simulate a crash there). */
  void mergeHook(BucketMerger.Hook hook) {
    this.mergeHook = requireNonNull(hook, "hook is null");
  }

  /**
   * Merges warm buckets when {@link MergePolicy} finds some to merge ({@link BucketMerger} says how
   * it stays crash-safe). One merge per call.
   *
   * @return whether a merge was done
   */
  public boolean merge() throws IOException {
    synchronized (mergeLock) {
      List<WarmBucket> byRoll = buckets.warm();
      byRoll.sort(java.util.Comparator.comparingLong((WarmBucket b) -> b.firstRoll));
      List<WarmBucket> sources = MergePolicy.select(byRoll, options);
      if (sources.isEmpty()) {
        return false;
      }
      MetricBucketFormat.Contents contents;
      try {
        contents = BucketMerger.contents(sources, options.chunkPoints());
      } catch (BucketMerger.SourceDamaged e) {
        String message = quarantineLive(e.bucket, e);
        if (message != null) {
          LOG.warning("metric index '" + name + "': merge abandoned; " + message);
        }
        return false;
      }
      long id = nextBucketId.getAndIncrement();
      Path tmp = MetricBucketFormat.writeTemporary(bucketsDirectory, id, contents);
      mergeHook.after(BucketMerger.Step.TEMPORARY_WRITTEN);
      Path published = buckets.publishMerge(sources, tmp);
      if (published == null) {
        return false;
      }
      mergeHook.after(BucketMerger.Step.PUBLISHED);
      buckets.replace(sources, WarmBucket.open(published));
      for (WarmBucket source : sources) {
        source.drop();
        mergeHook.after(BucketMerger.Step.SOURCE_DROPPED);
      }
      LOG.info(
          "metric index '"
              + name
              + "': merged "
              + sources.size()
              + " buckets ("
              + contents.points()
              + " points) into bucket "
              + id);
      return true;
    }
  }

  /**
   * Visits the points in {@code [from, to)} of the series {@code selector} accepts, each series'
   * points in time order within a bucket — or within a group of buckets overlapping in time, read
   * together so that the last point written at an instant wins ({@link SnapshotScan}). Buckets and
   * chunks outside the range are skipped unread.
   */
  public MetricScanStats scan(
      SeriesSelector selector, long from, long to, MetricScanVisitor visitor) throws IOException {
    return scan(selector, from, to, visitor, null, 1);
  }

  /**
   * As {@link #scan(SeriesSelector, long, long, MetricScanVisitor)}; a warm bucket's series are
   * read in up to {@code threads} slices in parallel on {@code parallel} when the visitor
   * {@linkplain MetricScanVisitor#fork forks} and there are enough of them ({@link SeriesSlices}).
   * The calling thread reads slices itself when the executor's threads are busy.
   */
  public MetricScanStats scan(
      SeriesSelector selector,
      long from,
      long to,
      MetricScanVisitor visitor,
      java.util.concurrent.Executor parallel,
      int threads)
      throws IOException {
    SnapshotScan.Snapshot snapshot = buckets.snapshot(selector, from, to);
    try {
      return new SnapshotScan(
              snapshot.byRoll(), snapshot.refused(), options.chunkPoints(), this, parallel, threads)
          .run(selector, from, to, visitor);
    } finally {
      snapshot.release();
    }
  }

  /**
   * The points of {@link #scan(SeriesSelector, long, long, MetricScanVisitor)}, in its order, read
   * as the caller advances: one chunk a step ({@link MetricCursor#advance}). The buckets are taken
   * now and held until the cursor is closed.
   */
  public MetricCursor cursor(SeriesSelector selector, long from, long to) {
    SnapshotScan.Snapshot snapshot = buckets.snapshot(selector, from, to);
    try {
      return new MetricCursor(
          new SnapshotScan(
              snapshot.byRoll(), snapshot.refused(), options.chunkPoints(), this, null, 1),
          snapshot,
          selector,
          from,
          to,
          false);
    } catch (RuntimeException | Error e) { // no cursor holds the buckets: give them back
      try {
        snapshot.release();
      } catch (IOException | RuntimeException released) {
        e.addSuppressed(released);
      }
      throw e;
    }
  }

  /** Whether the bucket is still one of the index's (not moved aside or merged away). */
  boolean live(WarmBucket bucket) {
    return buckets.live(bucket);
  }

  /** Moves a live bucket found damaged aside; null when another search did already. */
  String quarantineLive(WarmBucket bucket, Exception cause) throws IOException {
    if (!buckets.remove(bucket)) {
      return null;
    }
    return quarantine.move(bucket.directory, cause);
  }

  /**
   * The keys of series {@code selector} accepts with points in {@code [from, to)}, once per bucket
   * that holds them.
   */
  public void seriesKeys(SeriesSelector selector, long from, long to, Consumer<SeriesKey> keys)
      throws IOException {
    SnapshotScan.Snapshot snapshot = buckets.snapshot(selector, from, to);
    try {
      snapshot.keys(selector, from, to, keys);
    } finally {
      snapshot.release();
    }
  }

  /** What the index holds. */
  public MetricIndexInfo info() throws IOException {
    return buckets.info(name, MetricBucketFormat.bytesByKind(bucketsDirectory, logDirectory));
  }

  @Override
  public void close() throws IOException {
    log.close();
  }
}
