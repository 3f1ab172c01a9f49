package io.quarry.codecs.store;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.tokens.TermTokenStream;
import io.quarry.codecs.wal.WriteAheadLog;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
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
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.IndexWriter;

/**
 * One Quarry index on disk: {@code buckets/<id>/}, each a Lucene index of a time range written with
 * {@link io.quarry.codecs.journal.QuarryCodec} (the journal holds {@code _raw}), and {@code wal/},
 * the write-ahead log.
 *
 * <p><b>Writes.</b> A batch gets consecutive sequence numbers and is appended to the log in one
 * step (so log order is sequence order); then it is added to the hot bucket, concurrently with
 * other batches (Lucene indexes on every writing thread); then the caller waits for the log's group
 * fsync and a near-real-time refresh. When {@link #add} returns the batch survives a crash and is
 * searchable.
 *
 * <p><b>Commits.</b> Every {@code commitInterval}, with adds paused for an instant (the write side
 * of a read-write lock), the log is rolled to a new file; then the hot bucket commits and the older
 * log files, all of whose events were added before the roll, are deleted. Events added while a
 * commit runs may or may not be in it, so recovery replays exactly the log events whose {@code
 * _seq} is not in any bucket: every acknowledged event is in the index exactly once.
 *
 * <p><b>Buckets.</b> The hot bucket rolls to warm (merged, read-only, bounds in its manifest) when
 * it holds {@code maxBucketEvents} events or is {@code maxHotAge} old. Searches open only buckets
 * whose time bounds overlap their range. Retention deletes whole warm buckets, oldest first, past
 * {@code maxAge} or while the index exceeds {@code maxTotalBytes}.
 */
public final class IndexStore implements Closeable {
  private static final Logger LOG = Logger.getLogger(IndexStore.class.getName());

  /** The term index field: DOCS-only postings, no norms, not stored. */
  private static final FieldType TERMS = termsFieldType();

  private final String name;
  private final Path bucketsPath;
  private final IndexOptions options;
  private final Clock clock;
  private final WriteAheadLog wal;
  private final CopyOnWriteArrayList<Bucket> buckets = new CopyOnWriteArrayList<>();

  /** Adds hold the read side; rolling the log or the hot bucket holds the write side. */
  private final ReentrantReadWriteLock addLock = new ReentrantReadWriteLock();

  /** Makes sequence assignment and the log append one step. */
  private final Object sequenceLock = new Object();

  private final Object commitLock = new Object();
  private final ScheduledFuture<?> committer;
  private final java.util.concurrent.atomic.AtomicLong quarantined =
      new java.util.concurrent.atomic.AtomicLong();
  private volatile Bucket hot;
  private long nextSequence; // guarded by sequenceLock
  private boolean closed; // guarded by commitLock

  IndexStore(
      String name, Path path, IndexOptions options, ScheduledExecutorService scheduler, Clock clock)
      throws IOException {
    this.name = requireNonNull(name, "name is null");
    this.options = requireNonNull(options, "options is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.bucketsPath = path.resolve("buckets");
    Files.createDirectories(bucketsPath);
    WriteAheadLog log = null;
    try {
      openBuckets();
      List<WalBatch> logged = new ArrayList<>();
      log =
          WriteAheadLog.open(
              path.resolve("wal"), (first, events) -> logged.add(new WalBatch(first, events)));
      long last = buckets.stream().mapToLong(Bucket::maxSequence).max().orElse(-1);
      long replayed = 0;
      if (!logged.isEmpty()) {
        long low = logged.get(0).firstSeq();
        long high = low;
        for (WalBatch batch : logged) {
          low = Math.min(low, batch.firstSeq());
          high = Math.max(high, batch.firstSeq() + batch.events().size() - 1);
        }
        java.util.BitSet present = new java.util.BitSet();
        for (Bucket bucket : buckets) {
          bucket.collectSequences(low, high, present);
        }
        for (WalBatch batch : logged) {
          for (int i = 0; i < batch.events().size(); i++) {
            long sequence = batch.firstSeq() + i;
            int bit = Math.toIntExact(sequence - low);
            if (!present.get(bit)) {
              Event event = batch.events().get(i);
              hot.add(toDocument(event, sequence), event.timeMicros(), sequence);
              present.set(bit);
              replayed++;
            }
          }
        }
        last = Math.max(last, high);
      }
      if (replayed > 0) {
        LOG.info("index " + name + ": replayed " + replayed + " events from the write-ahead log");
        hot.commit();
        hot.refresh(hot.addedGeneration());
      }
      log.deleteBefore(log.roll());
      this.nextSequence = last + 1;
      this.wal = log;
    } catch (IOException | RuntimeException e) {
      org.apache.lucene.util.IOUtils.closeWhileHandlingException(log);
      org.apache.lucene.util.IOUtils.closeWhileHandlingException(buckets);
      throw e;
    }
    long interval = options.commitInterval().toMillis();
    this.committer =
        scheduler.scheduleWithFixedDelay(
            this::scheduledMaintenance, interval, interval, TimeUnit.MILLISECONDS);
  }

  /**
   * Opens every bucket directory; older buckets left hot by a crash during a roll are rolled now.
   */
  private void openBuckets() throws IOException {
    List<Long> ids = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(bucketsPath)) {
      for (Path directory : stream) {
        try {
          ids.add(Long.parseLong(directory.getFileName().toString()));
        } catch (NumberFormatException e) {
          LOG.warning("index " + name + ": ignoring unexpected entry " + directory);
        }
      }
    }
    ids.sort(null);
    long now = clock.millis();
    for (long id : ids) {
      Bucket bucket;
      try {
        bucket = Bucket.open(id, bucketsPath.resolve(Long.toString(id)), options, now);
      } catch (CorruptIndexException
          | IndexFormatTooOldException
          | IndexFormatTooNewException
          | NoSuchFileException
          | NumberFormatException e) {
        quarantine(bucketsPath.resolve(Long.toString(id)), e);
        continue;
      }
      buckets.add(bucket);
      if (!bucket.isWarm()) {
        if (hot != null) {
          hot.roll();
        }
        hot = bucket;
      }
    }
    if (hot == null) {
      long id = ids.isEmpty() ? 1 : ids.get(ids.size() - 1) + 1;
      hot = Bucket.open(id, bucketsPath.resolve(Long.toString(id)), options, now);
      buckets.add(hot);
    }
  }

  public String name() {
    return name;
  }

  /**
   * Moves a damaged bucket out of the way ({@code quarantine/<id>}), so every other bucket stays
   * searchable; the data is kept for inspection and repair.
   */
  private void quarantine(Path bucket, Exception cause) throws IOException {
    Path target = bucketsPath.resolveSibling("quarantine").resolve(bucket.getFileName());
    Files.createDirectories(target.getParent());
    Files.move(bucket, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    quarantined.incrementAndGet();
    LOG.log(
        Level.SEVERE,
        "index "
            + name
            + ": bucket "
            + bucket.getFileName()
            + " is damaged and was moved to "
            + target
            + "; the rest of the index stays searchable",
        cause);
  }

  /** Quarantines a bucket found damaged while searching; returns a warning for the search. */
  String quarantine(Bucket bucket, Exception cause) {
    if (buckets.remove(bucket)) {
      try {
        bucket.close();
      } catch (IOException | RuntimeException e) {
        cause.addSuppressed(e);
      }
      try {
        quarantine(bucket.path(), cause);
      } catch (IOException e) {
        LOG.log(Level.SEVERE, "index " + name + ": cannot quarantine " + bucket.path(), e);
      }
    }
    return "index '"
        + name
        + "': bucket "
        + bucket.id()
        + " is damaged ("
        + cause.getMessage()
        + ") and was quarantined; results miss its events";
  }

  /** Buckets quarantined since the store opened. */
  public long quarantinedBuckets() {
    return quarantined.get();
  }

  /** Stores events: returns once they are durable (fsync'd to the log) and searchable. */
  public void add(List<Event> events) throws IOException {
    if (events.isEmpty()) {
      return;
    }
    long position;
    long generation;
    Bucket target;
    addLock.readLock().lock();
    try {
      long first;
      synchronized (sequenceLock) {
        first = nextSequence;
        position = wal.append(first, events);
        nextSequence = first + events.size();
      }
      target = hot;
      for (int i = 0; i < events.size(); i++) {
        Event event = events.get(i);
        target.add(toDocument(event, first + i), event.timeMicros(), first + i);
      }
      generation = target.addedGeneration();
    } finally {
      addLock.readLock().unlock();
    }
    wal.sync(position);
    target.refresh(generation);
  }

  /** Commits to Lucene everything added so far and drops the log files that covered it. */
  public void commit() throws IOException {
    synchronized (commitLock) {
      if (closed) {
        return;
      }
      commitLocked(false);
    }
  }

  /**
   * Rolls the log, commits the hot bucket and deletes the covered log files; with {@code
   * rollBucket} the hot bucket also turns warm and a new one takes writes.
   */
  private void commitLocked(boolean rollBucket) throws IOException {
    if (!hot.hasUncommittedChanges() && !rollBucket) {
      return;
    }
    long generation;
    Bucket committing;
    addLock.writeLock().lock();
    try {
      generation = wal.roll();
      committing = hot;
      if (rollBucket) {
        long id = committing.id() + 1;
        Bucket next =
            Bucket.open(id, bucketsPath.resolve(Long.toString(id)), options, clock.millis());
        buckets.add(next);
        hot = next;
      }
    } finally {
      addLock.writeLock().unlock();
    }
    if (rollBucket) {
      committing.roll();
      LOG.info(
          "index "
              + name
              + ": bucket "
              + committing.id()
              + " rolled to warm with "
              + committing.events()
              + " events");
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
        commitLocked(full);
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
        commitLocked(true);
      }
    }
  }

  /**
   * Deletes warm buckets past the index's retention, oldest first.
   *
   * @return the number of buckets deleted
   */
  public int applyRetention() throws IOException {
    int deleted = 0;
    long nowMicros = clock.millis() * 1000;
    List<Bucket> warm = new ArrayList<>(buckets.stream().filter(Bucket::isWarm).toList());
    warm.sort(java.util.Comparator.comparingLong(Bucket::maxTime));
    long total = 0;
    for (Bucket bucket : buckets) {
      total += bucket.sizeOnDisk();
    }
    for (Bucket bucket : warm) {
      boolean tooOld =
          options.maxAge().isPresent()
              && bucket.maxTime() < nowMicros - options.maxAge().get().toNanos() / 1000;
      boolean tooBig = options.maxTotalBytes().isPresent() && total > options.maxTotalBytes().get();
      if (!tooOld && !tooBig) {
        continue;
      }
      long size = bucket.sizeOnDisk();
      buckets.remove(bucket);
      bucket.close();
      org.apache.lucene.util.IOUtils.rm(bucket.path());
      total -= size;
      deleted++;
      LOG.info(
          "index "
              + name
              + ": retention deleted bucket "
              + bucket.id()
              + " ("
              + (tooOld ? "older than maxAge" : "over maxTotalBytes")
              + ", "
              + bucket.events()
              + " events)");
    }
    return deleted;
  }

  /**
   * The buckets whose time bounds overlap {@code [earliest, latest)}, and how many were skipped.
   */
  List<Bucket> bucketsOverlapping(long earliest, long latest) {
    List<Bucket> chosen = new ArrayList<>();
    for (Bucket bucket : buckets) {
      if (bucket.overlaps(earliest, latest)) {
        chosen.add(bucket);
      }
    }
    return chosen;
  }

  int bucketCount() {
    return buckets.size();
  }

  /** Every bucket, for statistics. */
  public List<BucketInfo> buckets() throws IOException {
    List<BucketInfo> infos = new ArrayList<>();
    for (Bucket bucket : buckets) {
      long[] journal = bucket.events() == 0 ? new long[2] : bucket.journalBytes();
      infos.add(
          new BucketInfo(
              bucket.id(),
              bucket.isWarm() ? "warm" : "hot",
              bucket.events(),
              bucket.events() == 0 ? 0 : bucket.minTime(),
              bucket.events() == 0 ? 0 : bucket.maxTime(),
              bucket.sizeOnDisk(),
              journal[0],
              journal[1]));
    }
    return infos;
  }

  /** The number of events in the index. */
  public long count() {
    return buckets.stream().mapToLong(Bucket::events).sum();
  }

  /** A batch read back from the log at open. */
  private record WalBatch(long firstSeq, List<Event> events) {}

  private static Document toDocument(Event event, long sequence) {
    Document document = new Document();
    document.add(new LongPoint(EventFields.SEQUENCE, sequence));
    document.add(new LongPoint(EventFields.TIME, event.timeMicros()));
    document.add(new NumericDocValuesField(EventFields.TIME, event.timeMicros()));
    document.add(new StoredField(EventFields.TIME, event.timeMicros()));
    document.add(new StoredField(EventFields.RAW, event.raw()));
    keyword(document, EventFields.HOST, EventFields.HOST, event.host());
    keyword(document, EventFields.SOURCE, EventFields.SOURCE, event.source());
    keyword(document, EventFields.SOURCETYPE, EventFields.SOURCETYPE, event.sourcetype());
    for (Map.Entry<String, List<String>> field : event.indexedFields().entrySet()) {
      for (String value : field.getValue()) {
        keyword(document, EventFields.INDEXED_FIELD_PREFIX + field.getKey(), field.getKey(), value);
      }
    }
    document.add(new Field(EventFields.TOKENS, new TermTokenStream(event.raw()), TERMS));
    return document;
  }

  private static FieldType termsFieldType() {
    FieldType type = new FieldType();
    type.setIndexOptions(org.apache.lucene.index.IndexOptions.DOCS);
    type.setTokenized(true);
    type.setOmitNorms(true);
    type.setStored(false);
    type.freeze();
    return type;
  }

  private static void keyword(Document document, String storedName, String field, String value) {
    document.add(new StoredField(storedName, value));
    String keyword = EventFields.keywordValue(value);
    if (keyword.length() <= IndexWriter.MAX_TERM_LENGTH / 4) {
      document.add(new StringField(EventFields.keywordField(field), keyword, Field.Store.NO));
    }
  }

  /** Commits, then closes every bucket and the log. */
  @Override
  public void close() throws IOException {
    committer.cancel(false);
    synchronized (commitLock) {
      if (closed) {
        return;
      }
      try {
        commitLocked(false);
      } finally {
        closed = true;
        List<Closeable> closeables = new ArrayList<>(buckets);
        closeables.add(wal);
        org.apache.lucene.util.IOUtils.close(closeables);
      }
    }
  }
}
