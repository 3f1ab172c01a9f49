package io.quarry.codecs.metricstore;

import static java.util.Objects.requireNonNull;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.logging.Logger;
import org.apache.lucene.util.IOUtils;

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
  private final Path quarantine;
  private final CopyOnWriteArrayList<String> damage = new CopyOnWriteArrayList<>();
  private final MetricIndexOptions options;
  private final Clock clock;
  private final MetricLog log;
  private final Object lock = new Object();
  private final Object rollLock = new Object();
  private final CopyOnWriteArrayList<WarmBucket> warm = new CopyOnWriteArrayList<>();
  private final CopyOnWriteArrayList<HotBucket> flushing = new CopyOnWriteArrayList<>();
  private HotBucket hot;
  private long nextBucketId;

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
    Path eventBuckets = directory.resolve("buckets");
    if (Files.isDirectory(eventBuckets)) {
      try (var entries = Files.list(eventBuckets)) {
        if (entries.findAny().isPresent()) {
          throw new IOException(
              "index '"
                  + name
                  + "' is declared datatype: metric but "
                  + directory
                  + " holds event buckets; an event index cannot become a metric index");
        }
      }
    }
    this.bucketsDirectory = directory.resolve("metric-buckets");
    Files.createDirectories(bucketsDirectory);
    this.quarantine = directory.resolve("quarantine");
    long covered = 0;
    long maxId = 0;
    for (Path dir : MetricBucketFormat.list(bucketsDirectory)) {
      maxId = Math.max(maxId, Long.parseLong(dir.getFileName().toString()));
      WarmBucket bucket;
      try {
        bucket = WarmBucket.open(dir);
      } catch (IOException | RuntimeException e) {
        quarantine(dir, e);
        continue;
      }
      warm.add(bucket);
      covered = Math.max(covered, bucket.walGeneration);
    }
    this.nextBucketId = maxId + 1;
    HotBucket replayed = new HotBucket(options.chunkPoints(), clock.millis());
    this.log =
        MetricLog.open(
            directory.resolve("metric-wal"),
            directory.resolve("quarantine"),
            covered,
            (generation, points) -> points.forEach(replayed::add));
    this.hot = replayed;
    if (replayed.points() > 0) {
      LOG.info("metric index '" + name + "': replayed " + replayed.points() + " points");
    }
  }

  public String name() {
    return name;
  }

  /** The buckets found damaged (on open or by a search) and moved to quarantine, as messages. */
  public List<String> damage() {
    return List.copyOf(damage);
  }

  /**
   * Moves a damaged warm bucket aside (its points are no longer searchable; the rest of the index
   * is) and says so in the log and {@link #damage()}.
   *
   * @return the message
   */
  private String quarantine(Path bucket, Exception cause) throws IOException {
    Files.createDirectories(quarantine);
    Path moved =
        quarantine.resolve(
            "metric-bucket-" + bucket.getFileName() + "-" + System.currentTimeMillis());
    Files.move(bucket, moved);
    String message =
        "metric index '"
            + name
            + "': bucket "
            + bucket.getFileName()
            + " is damaged ("
            + cause.getMessage()
            + ") and was moved to "
            + moved
            + "; its points are not searched";
    LOG.severe(message);
    damage.add(message);
    return message;
  }

  /**
   * Stores points durably: returns once they survive a crash and are visible to searches.
   *
   * @throws IOException when the log cannot be written or forced (nothing of the batch is then
   *     acknowledged; a failed fsync fails the index until a restart)
   */
  public void add(List<MetricPoint> points) throws IOException {
    if (points.isEmpty()) {
      return;
    }
    long position;
    java.nio.ByteBuffer record = MetricLog.record(points); // outside the lock: the costly part
    synchronized (lock) {
      position = log.append(record);
      for (MetricPoint point : points) {
        hot.add(point);
      }
    }
    log.sync(position);
    if (rollDue()) {
      roll();
    }
  }

  private boolean rollDue() {
    synchronized (lock) {
      return hot.points() >= options.maxBucketPoints()
          || !hot.isEmpty()
              && clock.millis() - hot.createdMillis() >= options.maxHotAge().toMillis();
    }
  }

  /** Rolls and applies retention when due; the store's scheduler calls this. */
  public void maintain() throws IOException {
    if (rollDue()) {
      roll();
    }
    applyRetention();
  }

  /** Writes the hot bucket out as a warm bucket now (nothing when it is empty). */
  public void roll() throws IOException {
    synchronized (rollLock) {
      HotBucket frozen;
      long closedGeneration;
      synchronized (lock) {
        if (hot.isEmpty()) {
          return;
        }
        closedGeneration = log.roll();
        frozen = hot;
        hot = new HotBucket(options.chunkPoints(), clock.millis());
        flushing.add(frozen);
      }
      long id = nextBucketId++;
      Path written;
      synchronized (frozen) {
        written = MetricBucketFormat.write(bucketsDirectory, id, frozen, closedGeneration);
      }
      WarmBucket opened = WarmBucket.open(written);
      synchronized (lock) {
        warm.add(opened);
        flushing.remove(frozen);
      }
      log.deleteThrough(closedGeneration);
    }
  }

  /** Deletes warm buckets past {@link MetricIndexOptions#maxAge}. */
  public void applyRetention() throws IOException {
    if (options.maxAge().isEmpty()) {
      return;
    }
    long cutoff = (clock.millis() - options.maxAge().get().toMillis()) * 1000;
    for (WarmBucket bucket : warm) {
      if (bucket.maxTime < cutoff) {
        synchronized (lock) {
          warm.remove(bucket);
        }
        IOUtils.rm(bucket.directory);
        LOG.info(
            "metric index '" + name + "': bucket " + bucket.id + " deleted by retention (maxAge)");
      }
    }
  }

  /**
   * Visits the points in {@code [from, to)} of the series {@code selector} accepts: warm buckets
   * oldest first, then buckets being written, then the hot bucket; within a bucket each series'
   * points in time order. Buckets and chunks outside the range are skipped unread.
   */
  public MetricScanStats scan(
      SeriesSelector selector, long from, long to, MetricScanVisitor visitor) throws IOException {
    long[] counts = new long[5];
    long buckets = 0;
    long skipped = 0;
    Snapshot snapshot = snapshot(selector, from, to);
    counts[1] += snapshot.refused;
    List<String> warnings = new ArrayList<>();
    for (WarmBucket bucket : snapshot.warm) {
      if (!bucket.overlaps(from, to)) {
        skipped++;
        continue;
      }
      buckets++;
      try {
        bucket.scan(selector, from, to, visitor, counts);
      } catch (java.nio.file.NoSuchFileException gone) {
        if (warm.contains(bucket)) {
          throw gone;
        } // deleted by retention while this search ran: it had nothing left to say
      } catch (org.apache.lucene.index.CorruptIndexException e) {
        // a chunk file or chunk failing its checksum: the bucket goes aside, the search goes on
        // (what it read of the bucket before the damage stays counted)
        synchronized (lock) {
          if (!warm.remove(bucket)) {
            continue; // another search moved it already
          }
        }
        warnings.add(quarantine(bucket.directory, e));
      }
    }
    for (List<HotBucket.Selected> selected : snapshot.inMemory) {
      if (selected == null) {
        skipped++;
        continue;
      }
      buckets++;
      scanSelected(selected, from, to, visitor, counts);
    }
    return new MetricScanStats(
        buckets, skipped, counts[0], counts[1], counts[2], counts[3], counts[4], warnings);
  }

  /**
   * The buckets a query reads, taken together under the lock (a roll moves a bucket from hot to
   * being written to warm under it too, so a query sees each bucket exactly once), and the selected
   * series of the in-memory ones with copies of their chunks (null for a bucket outside the range).
   */
  private record Snapshot(
      List<WarmBucket> warm, List<List<HotBucket.Selected>> inMemory, long refused) {}

  private Snapshot snapshot(SeriesSelector selector, long from, long to) {
    List<WarmBucket> warmNow;
    List<HotBucket> flushingNow;
    List<HotBucket.Selected> hotSelected;
    long[] refused = new long[1];
    synchronized (lock) {
      warmNow = new ArrayList<>(warm);
      flushingNow = new ArrayList<>(flushing);
      hotSelected =
          hot.isEmpty() || hot.minTime() >= to || hot.maxTime() < from
              ? null
              : hot.select(selector, from, to, refused);
    }
    warmNow.sort(java.util.Comparator.comparingLong((WarmBucket b) -> b.minTime));
    List<List<HotBucket.Selected>> inMemory = new ArrayList<>();
    for (HotBucket bucket : flushingNow) {
      synchronized (bucket) {
        inMemory.add(
            bucket.minTime() >= to || bucket.maxTime() < from
                ? null
                : bucket.select(selector, from, to, refused));
      }
    }
    inMemory.add(hotSelected);
    return new Snapshot(warmNow, inMemory, refused[0]);
  }

  private static void scanSelected(
      List<HotBucket.Selected> selected,
      long from,
      long to,
      MetricScanVisitor visitor,
      long[] counts)
      throws IOException {
    io.quarry.codecs.metric.MetricChunkReader reader =
        new io.quarry.codecs.metric.MetricChunkReader();
    io.quarry.codecs.metric.MetricPointIterator iterator =
        new io.quarry.codecs.metric.MetricPointIterator();
    for (HotBucket.Selected series : selected) {
      if (visitor.stopped()) {
        return;
      }
      MetricScanVisitor.Points sink = visitor.series(series.key());
      if (sink == null) {
        continue;
      }
      counts[0]++;
      for (Chunk chunk : series.chunks()) {
        if (!chunk.overlaps(from, to)) {
          counts[3]++;
          continue;
        }
        counts[2]++;
        if (chunk.minTime() >= from
            && chunk.maxTime() < to
            && sink.wholeChunk(chunk.minTime(), chunk.maxTime(), chunk.count())) {
          counts[4] += chunk.count();
          continue;
        }
        iterator.reset(reader.reset(chunk.bytes(), 0, chunk.bytes().length), from, to);
        while (iterator.next()) {
          sink.point(iterator.timestamp(), iterator.value());
          counts[4]++;
        }
      }
    }
  }

  /**
   * The keys of series {@code selector} accepts with points in {@code [from, to)}, once per bucket
   * that holds them.
   */
  public void seriesKeys(SeriesSelector selector, long from, long to, Consumer<SeriesKey> keys)
      throws IOException {
    Snapshot snapshot = snapshot(selector, from, to);
    for (WarmBucket bucket : snapshot.warm) {
      if (bucket.overlaps(from, to)) {
        bucket.keys(selector, from, to, keys);
      }
    }
    for (List<HotBucket.Selected> selected : snapshot.inMemory) {
      if (selected != null) {
        selected.forEach(s -> keys.accept(s.key()));
      }
    }
  }

  /** What the index holds. */
  public record Info(
      String name,
      int warmBuckets,
      long points,
      long hotPoints,
      long series,
      long chunks,
      long bytesOnDisk,
      long minTime,
      long maxTime) {}

  public Info info() {
    long points = 0;
    long series = 0;
    long chunks = 0;
    long bytes = 0;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    List<WarmBucket> buckets = new ArrayList<>(warm);
    for (WarmBucket bucket : buckets) {
      points += bucket.points;
      series += bucket.seriesCount();
      chunks += bucket.chunkCount();
      bytes += bucket.bytesOnDisk();
      min = Math.min(min, bucket.minTime);
      max = Math.max(max, bucket.maxTime);
    }
    long hotPoints;
    synchronized (lock) {
      hotPoints = hot.points();
      for (HotBucket bucket : flushing) {
        hotPoints += bucket.points();
      }
      if (!hot.isEmpty()) {
        min = Math.min(min, hot.minTime());
        max = Math.max(max, hot.maxTime());
      }
    }
    return new Info(
        name, buckets.size(), points + hotPoints, hotPoints, series, chunks, bytes, min, max);
  }

  @Override
  public void close() throws IOException {
    log.close();
  }
}
