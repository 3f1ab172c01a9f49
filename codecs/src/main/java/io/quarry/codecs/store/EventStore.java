package io.quarry.codecs.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.lucene.search.Query;

/** All Quarry indexes of one data directory: {@code <data>/indexes/<name>/} each. */
public final class EventStore implements Closeable {
  /**
   * Index names: lower-case letters, digits, {@code _} and {@code -}, starting with a letter, digit
   * or {@code _}.
   */
  public static final Pattern INDEX_NAME = Pattern.compile("[a-z0-9_][a-z0-9_-]{0,79}");

  /**
   * The committer threads of a store opened without saying how many: the work is mostly waiting for
   * fsyncs, so more threads than cores, and enough that a few stalled or rolling indexes leave the
   * others a thread ({@link CommitterPool}).
   */
  public static final int DEFAULT_COMMITTER_THREADS = CommitterPool.DEFAULT_THREADS;

  /** The most committer threads a store takes ({@link #open(Path, Map, Clock, int)}). */
  public static final int MAX_COMMITTER_THREADS = CommitterPool.MAX_THREADS;

  private final Map<String, IndexStore> indexes;

  private final CommitterPool committers; // every index's periodic work, each on its own queue
  private final CompactionPermits permits; // the node's bound on deferred compactions

  private EventStore(
      Map<String, IndexStore> indexes, CommitterPool committers, CompactionPermits permits) {
    this.indexes = indexes;
    this.committers = committers;
    this.permits = permits;
  }

  /** Opens every index with default options. */
  public static EventStore open(Path dataDirectory, Collection<String> indexNames)
      throws IOException {
    Map<String, IndexOptions> options = new LinkedHashMap<>();
    indexNames.forEach(name -> options.put(name, IndexOptions.DEFAULTS));
    return open(dataDirectory, options);
  }

  /**
   * Opens (creating where missing) every declared index under {@code dataDirectory}, replaying what
   * each write-ahead log holds beyond the index's last commit.
   */
  public static EventStore open(Path dataDirectory, Map<String, IndexOptions> indexOptions)
      throws IOException {
    return open(dataDirectory, indexOptions, Clock.systemUTC());
  }

  /** As {@link #open(Path, Map)}, with the clock that drives bucket rolling and retention. */
  public static EventStore open(
      Path dataDirectory, Map<String, IndexOptions> indexOptions, Clock clock) throws IOException {
    return open(dataDirectory, indexOptions, clock, DEFAULT_COMMITTER_THREADS);
  }

  /**
   * As {@link #open(Path, Map, Clock)}, with at most {@code committerThreads} threads (1 to {@link
   * #MAX_COMMITTER_THREADS}) for every index's commits, rolls, refreshes and compaction checks
   * ({@link CommitterPool}).
   */
  public static EventStore open(
      Path dataDirectory, Map<String, IndexOptions> indexOptions, Clock clock, int committerThreads)
      throws IOException {
    return open(
        dataDirectory, indexOptions, clock, committerThreads, index -> BucketDirectories.DEFAULT);
  }

  /**
   * As {@link #open(Path, Map, Clock, int)}, each index's buckets opened by {@code directories}
   * (given the index's name): the seam through which the server's tests fail one index's disk on a
   * real server; the server itself opens {@link BucketDirectories#DEFAULT}.
   */
  public static EventStore open(
      Path dataDirectory,
      Map<String, IndexOptions> indexOptions,
      Clock clock,
      int committerThreads,
      Function<String, BucketDirectories> directories)
      throws IOException {
    java.util.Objects.requireNonNull(directories, "directories is null");
    Map<String, IndexStore> indexes = new TreeMap<>();
    CommitterPool committers = new CommitterPool(committerThreads);
    CompactionPermits permits = new CompactionPermits(CompactionPermits.DEFAULT_PERMITS);
    try {
      for (Map.Entry<String, IndexOptions> entry : indexOptions.entrySet()) {
        String name = entry.getKey();
        if (!INDEX_NAME.matcher(name).matches()) {
          throw new IllegalArgumentException(
              "invalid index name '" + name + "': use lower-case letters, digits, '_' and '-'");
        }
        Path path = dataDirectory.resolve("indexes").resolve(name);
        Files.createDirectories(path);
        IndexCommitQueue committer = committers.queue(name);
        indexes.put(
            name,
            new IndexStore(
                name, path, entry.getValue(), committer, clock, directories.apply(name), permits));
      }
    } catch (IOException | RuntimeException e) {
      committers.stopNow();
      for (IndexStore store : indexes.values()) {
        try {
          store.close();
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
    return new EventStore(indexes, committers, permits);
  }

  /**
   * The most threads this store runs every index's commits, rolls, refreshes and compaction checks
   * on ({@link #open(Path, Map, Clock, int)}'s {@code committerThreads}).
   */
  public int committerThreads() {
    return committers.threads();
  }

  /** The committer pool of every index's periodic work (tests count its threads). */
  CommitterPool committerPool() {
    return committers;
  }

  /** The node's bound on compactions, shared by every index (tests hold it: CompactionHolds). */
  CompactionPermits compactionPermits() {
    return permits;
  }

  public Set<String> indexNames() {
    return indexes.keySet();
  }

  public boolean hasIndex(String name) {
    return indexes.containsKey(name);
  }

  public IndexStore index(String name) {
    IndexStore store = indexes.get(name);
    if (store == null) {
      throw new IllegalArgumentException("no such index: " + name);
    }
    return store;
  }

  /**
   * Stores events durably: returns once they survive a crash and are visible to search.
   *
   * @return the UTF-8 bytes of the events' raw texts
   */
  public long write(String index, List<Event> events) throws IOException {
    return index(index).add(events);
  }

  /**
   * {@link #write(String, List)}, running {@code indexed} once the events are appended to the log
   * and indexed, before the wait for the log's group fsync: the caller hands its ingest pipeline on
   * there, since the wait takes no CPU (the answer still goes only once the events are durable).
   */
  public long write(String index, List<Event> events, Runnable indexed) throws IOException {
    return index(index).add(events, indexed);
  }

  /**
   * Appends {@code events} to the index's log and hot bucket without waiting for the log's fsync
   * ({@link IndexStore#append}): the caller waits ({@link LoggedBatch#awaitDurable}) before it
   * acknowledges them.
   */
  public LoggedBatch append(String index, List<Event> events) throws IOException {
    return index(index).append(events);
  }

  /**
   * Throws what {@link #write} would refuse {@code events} with before writing anything: {@link
   * IndexBusyException} when the index is busy ({@link IndexStore#requireAccepting}), {@link
   * io.quarry.codecs.wal.WriteAheadLog.RecordTooLarge} when the batch is too large for its log
   * ({@link IndexStore#requireFits}). Writes nothing.
   */
  public void requireAccepting(String index, List<Event> events) throws IOException {
    IndexStore store = index(index);
    store.requireAccepting();
    store.requireFits(events);
  }

  /**
   * The indexes matching any of the patterns ({@code *} wildcards, case-insensitive); {@code *}
   * alone means every index except internal ones (names starting with {@code _}), as in Splunk
   * ({@link IndexPatterns}).
   */
  public List<String> resolve(List<String> patterns) {
    return IndexPatterns.resolve(indexes.keySet(), patterns);
  }

  /**
   * Visits the events of the given indexes that match {@code query} and lie in {@code [earliest,
   * latest)}, newest first across all indexes, buckets and segments, until the visitor returns
   * false. Buckets whose time bounds miss the range are not opened.
   */
  public ScanStats scan(
      List<String> indexNames,
      Query query,
      long earliestMicros,
      long latestMicros,
      EventVisitor visitor)
      throws IOException {
    return scan(
        indexNames,
        query,
        earliestMicros,
        latestMicros,
        visitor,
        cursor -> {
          while (cursor.advance(Integer.MAX_VALUE)) {
            // the cursor visits until the scan ends
          }
        });
  }

  /** Reads a time-ordered scan through its cursor, as far as it wants. */
  @FunctionalInterface
  public interface CursorReader {
    /** Advances {@code cursor}; returning before it ended stops the scan there. */
    void read(EventCursor cursor) throws IOException;
  }

  /**
   * The pull form of {@link #scan}: the same events, newest first, go to {@code visitor} as {@code
   * reader} advances the scan's {@link TimeOrderedCursor}, on the caller's thread; the visitor is
   * closed when the reader returns (or fails), the searchers released.
   */
  public ScanStats scan(
      List<String> indexNames,
      Query query,
      long earliestMicros,
      long latestMicros,
      EventVisitor visitor,
      CursorReader reader)
      throws IOException {
    return ScanSources.with(
        this::index,
        indexNames,
        earliestMicros,
        latestMicros,
        sources -> {
          try {
            TimeOrderedCursor cursor =
                new TimeOrderedCursor(sources, query, earliestMicros, latestMicros, visitor);
            reader.read(cursor);
            return cursor.stats();
          } finally {
            visitor.close();
          }
        });
  }

  /**
   * Batch mode: visits the same events as {@link #scan}, in no order, on {@code executor}'s
   * threads, each slice of a segment read by its own {@link ScanSlice} (from {@code slices}), which
   * pulls the slice's events through a {@link SliceCursor} as it wants them ({@link
   * ScanSlice#visiting}: every one). For aggregations: each slice's visitor keeps a partial result
   * the caller merges.
   */
  public ScanStats pullParallel(
      List<String> indexNames,
      Query query,
      long earliestMicros,
      long latestMicros,
      java.util.function.Supplier<ScanSlice> slices,
      java.util.concurrent.ExecutorService executor)
      throws IOException {
    return ScanSources.with(
        this::index,
        indexNames,
        earliestMicros,
        latestMicros,
        sources ->
            new ParallelScan(sources, query, earliestMicros, latestMicros).run(slices, executor));
  }

  /**
   * As {@link #pullParallel}, but the documents of {@code counted} (which must match only documents
   * {@code query} matches) are counted instead of visited: their number, in the time range, goes to
   * {@code countedSink} before the scan (from the term index where Lucene can: a term's document
   * frequency, a segment's live documents), and the scan visits {@code query}'s other documents
   * only. A bucket stored as blocks counts its events from its blocks' counts when {@code counted}
   * matches everything and the bucket lies inside the time range; otherwise it counts nothing and
   * every event of its candidate blocks is visited, so a caller searching an index that {@link
   * IndexStore#holdsBlocks holds blocks} must check every visited event against its filter and may
   * count up front only what needs no check ({@link CountingScan}).
   */
  public ScanStats pullParallelCounting(
      List<String> indexNames,
      Query query,
      Query counted,
      long earliestMicros,
      long latestMicros,
      java.util.function.LongConsumer countedSink,
      java.util.function.Supplier<ScanSlice> slices,
      java.util.concurrent.ExecutorService executor)
      throws IOException {
    return ScanSources.with(
        this::index,
        indexNames,
        earliestMicros,
        latestMicros,
        sources ->
            CountingScan.run(
                sources,
                query,
                counted,
                earliestMicros,
                latestMicros,
                countedSink,
                slices,
                executor));
  }

  @Override
  public void close() throws IOException {
    committers.stop(60); // a commit or refresh that runs finishes first
    IOException failure = null;
    for (IndexStore store : indexes.values()) {
      try {
        store.close();
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
