package io.quarry.codecs.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;

/**
 * Batch mode: the matching events of many segments, in no particular order, read by several threads
 * at once. Each segment is cut into slices of doc ids ({@link #SLICE_DOCS} at most, so one large
 * merged segment still keeps every core busy); each slice is a task with a visitor of its own, so
 * visitors need no locking and a partial aggregation per visitor is merged by the caller. The
 * slices of one segment of blocks share its candidate blocks, found once ({@link LeafMatches}).
 */
final class ParallelScan {
  /** The most doc ids one task covers. */
  static final int SLICE_DOCS = 1 << 17;

  /**
   * The most block documents one task covers: {@link #SLICE_DOCS} events in blocks of 1,024, four
   * times as many in blocks of 4,096 ({@link IndexOptions#blockEvents}; a segment does not say the
   * size its blocks were written at, and fewer, larger tasks leave fewer partial answers to merge).
   */
  static final int SLICE_BLOCKS = 128;

  /**
   * The longest an interrupted scan waits for its running slices to stop before it throws anyway.
   * Once the scan is abandoned a slice stops at its cursor's next advance (a search's page source
   * advances a page of events at a time); what can hold one longer is work outside the cursor: a
   * segment's candidate blocks being found ({@link LeafMatches}, which asks its search whether it
   * stopped every 1,024 candidates), a visitor's close, a plugin's map side. The bound only keeps a
   * wedged slice from holding the interrupted thread for ever: ten seconds is a third of the grace
   * a shutting-down server gives its searches before it interrupts them (30 s, {@code
   * JobManager.close}). What a slice still running after it charges lands on an account its search
   * has closed (kept there, not in the breaker over all searches), and its bucket's searcher may be
   * released under it (its read then fails).
   */
  static final java.time.Duration STOP_WAIT = java.time.Duration.ofSeconds(10);

  private final List<TimeOrderedScan.Source> sources;
  private final org.apache.lucene.search.Query query;
  private final org.apache.lucene.search.Query blockQuery;
  private final long earliest;
  private final long latest;
  private java.time.Duration stopWait = STOP_WAIT;

  ParallelScan(
      List<TimeOrderedScan.Source> sources,
      org.apache.lucene.search.Query query,
      long earliestMicros,
      long latestMicros) {
    this(sources, query, query, earliestMicros, latestMicros);
  }

  /**
   * A scan whose event buckets read {@code query}'s matches and whose block buckets read the events
   * of {@code blockQuery}'s candidate blocks ({@link BlockQueries}).
   */
  ParallelScan(
      List<TimeOrderedScan.Source> sources,
      org.apache.lucene.search.Query query,
      org.apache.lucene.search.Query blockQuery,
      long earliestMicros,
      long latestMicros) {
    this.sources = sources;
    this.query = query;
    this.blockQuery = blockQuery;
    this.earliest = earliestMicros;
    this.latest = latestMicros;
  }

  /** Another bound than {@link #STOP_WAIT} on an interrupted scan's wait (a test's). */
  ParallelScan stopWait(java.time.Duration wait) {
    this.stopWait = wait;
    return this;
  }

  /**
   * Runs every slice on {@code executor}, each read by a new {@link ScanSlice} from {@code readers}
   * through its {@link SliceCursor}; returns when all are done. A visitor returning false ends its
   * own slice only.
   */
  ScanStats run(Supplier<ScanSlice> readers, ExecutorService executor) throws IOException {
    List<Slice> slices = new ArrayList<>();
    List<LeafMatches> shared = new ArrayList<>();
    try {
      return run(readers, executor, slices, shared);
    } finally {
      shared.forEach(LeafMatches::release); // each segment's charge given back once, at the end
    }
  }

  private ScanStats run(
      Supplier<ScanSlice> readers,
      ExecutorService executor,
      List<Slice> slices,
      List<LeafMatches> shared)
      throws IOException {
    int segments = 0;
    Totals totals = new Totals();
    for (TimeOrderedScan.Source source : sources) {
      IndexSearcher searcher = source.searcher();
      long lookupStarted = System.nanoTime();
      boolean blocks = source.bucket().format() == BucketFormat.BLOCKS;
      org.apache.lucene.search.Query rewritten =
          searcher.rewrite(
              blocks
                  ? BlockQueries.forSource(blockQuery, source, earliest, latest)
                  : TimeOrderedScan.withTimeRange(query, source, earliest, latest));
      Weight weight = searcher.createWeight(rewritten, ScoreMode.COMPLETE_NO_SCORES, 1f);
      totals.add(ScanStats.Costs.indexLookup(System.nanoTime() - lookupStarted));
      for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
        segments++;
        if (rewritten instanceof org.apache.lucene.search.MatchNoDocsQuery) {
          totals.segmentsSkipped.incrementAndGet(); // no task, no visitor: nothing to read
          continue;
        }
        int maxDoc = leaf.reader().maxDoc();
        int sliceDocs = blocks ? SLICE_BLOCKS : SLICE_DOCS;
        SegmentDictionaries dictionaries = new SegmentDictionaries();
        // a segment of blocks cut into several slices finds its candidate blocks once for all
        LeafMatches matches = blocks && maxDoc > sliceDocs ? new LeafMatches(weight, leaf) : null;
        if (matches != null) {
          shared.add(matches);
        }
        for (int from = 0; from < maxDoc; from += sliceDocs) {
          slices.add(
              new Slice(
                  source,
                  weight,
                  leaf,
                  from,
                  Math.min(maxDoc, from + sliceDocs),
                  blocks,
                  range(),
                  dictionaries,
                  matches));
        }
      }
    }
    List<Future<String>> futures = new ArrayList<>();
    RunningSlices running = new RunningSlices();
    // slices not yet started: at 0 a thread whose slice ends reads no other (ScanSlice.noSliceLeft)
    java.util.concurrent.atomic.AtomicInteger unstarted =
        new java.util.concurrent.atomic.AtomicInteger(slices.size());
    for (Slice slice : slices) {
      futures.add(
          executor.submit(
              () -> {
                if (!running.enter()) {
                  return null; // starting after the scan was abandoned: it makes no visitor
                }
                try {
                  ScanSlice reader = readers.get(); // made before this slice counts started
                  unstarted.decrementAndGet();
                  String warning = slice.run(reader, totals, running);
                  if (unstarted.get() == 0) {
                    reader.noSliceLeft();
                  }
                  return warning;
                } finally {
                  running.exit();
                }
              }));
    }
    List<String> warnings = new ArrayList<>();
    IOException failure = null;
    for (Future<String> future : futures) {
      try {
        String warning = future.get();
        if (warning != null && !warnings.contains(warning)) {
          warnings.add(warning);
        }
      } catch (InterruptedException e) {
        throw interrupted(futures, running, e);
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof IOException io) {
          failure = failure == null ? io : failure;
        } else {
          // slices not started yet read nothing; running ones stop at their cursor's next advance
          // and end before the caller gives back what the scan's visitors hand over
          running.abandon();
          awaitAll(futures, running);
          if (cause instanceof RuntimeException runtime) {
            throw runtime;
          }
          throw new IOException(cause);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
    return new ScanStats(
        0,
        sources.size(),
        0,
        segments,
        totals.segmentsSkipped.get(),
        totals.read.get(),
        totals.costs.get(),
        warnings);
  }

  /**
   * Waits for every slice, whatever it ends with (a slice's own failure is not this scan's first):
   * nothing a visitor hands over arrives after the scan returns or throws. Interrupted, stops the
   * slices as {@link #interrupted} does and returns with the interrupt set.
   */
  private void awaitAll(List<Future<String>> futures, RunningSlices running) {
    for (Future<String> future : futures) {
      try {
        future.get();
      } catch (ExecutionException | java.util.concurrent.CancellationException e) {
        // another slice's failure: the first one is thrown
      } catch (InterruptedException e) {
        interrupted(futures, running, e);
        return;
      }
    }
  }

  /**
   * The thread waiting for the scan was interrupted (a server shutting down past its grace): no
   * slice starts from now (those queued are cancelled), the running ones stop at their cursor's
   * next advance, and the scan waits for them — at most {@link #stopWait} — before it throws, so
   * that what its caller gives back next (the search's memory, the buckets' searchers) is no longer
   * in use. Returns the error to throw, the thread's interrupt set again. The running slices are
   * not interrupted: one reading through a file channel would close it under every other reader
   * (why {@code JobManager.close} does not interrupt its searches either).
   */
  private IOException interrupted(
      List<Future<String>> futures, RunningSlices running, InterruptedException cause) {
    running.abandon();
    futures.forEach(f -> f.cancel(false));
    int left = running.awaitNone(stopWait.toNanos());
    Thread.currentThread().interrupt();
    return new IOException(
        left == 0
            ? "search interrupted"
            : "search interrupted; "
                + left
                + " of its slices still running after "
                + stopWait.toMillis()
                + " ms",
        cause);
  }

  /** What the slices of a scan add up, from several threads. */
  private static final class Totals {
    final AtomicLong read = new AtomicLong();
    final java.util.concurrent.atomic.AtomicInteger segmentsSkipped =
        new java.util.concurrent.atomic.AtomicInteger();
    final java.util.concurrent.atomic.AtomicReference<ScanStats.Costs> costs =
        new java.util.concurrent.atomic.AtomicReference<>(ScanStats.Costs.NONE);

    void add(ScanStats.Costs more) {
      costs.accumulateAndGet(more, ScanStats.Costs::plus);
    }
  }

  private long[] range() {
    return new long[] {earliest, latest};
  }

  /**
   * Doc ids {@code [from, to)} of one segment: events, or blocks whose events in {@code range} are
   * visited one by one.
   */
  private record Slice(
      TimeOrderedScan.Source source,
      Weight weight,
      LeafReaderContext leaf,
      int from,
      int to,
      boolean blocks,
      long[] range,
      SegmentDictionaries dictionaries,
      LeafMatches matches) {

    /** Returns a warning when the bucket turned out damaged (it is quarantined), else null. */
    String run(ScanSlice slice, Totals totals, RunningSlices running) throws IOException {
      EventVisitor visitor = slice.visitor();
      SliceCursor cursor = null;
      long[] journalBefore = io.quarry.codecs.journal.JournalReads.read();
      try {
        long lookupStarted = System.nanoTime();
        DocIdSetIterator docs;
        if (matches != null) { // the segment's, shared with its other slices
          docs = matches.iterator(slice);
          totals.add(ScanStats.Costs.sharedMatches(System.nanoTime() - lookupStarted));
        } else {
          Scorer scorer = weight.scorer(leaf);
          docs = scorer == null ? null : scorer.iterator();
          totals.add(ScanStats.Costs.indexLookup(System.nanoTime() - lookupStarted));
        }
        if (docs == null && from == 0) {
          totals.segmentsSkipped.incrementAndGet(); // counted once, by the segment's first slice
        }
        cursor =
            new SliceCursor(
                visitor,
                source,
                leaf,
                docs,
                from,
                to,
                blocks,
                weight.getQuery() instanceof org.apache.lucene.search.MatchAllDocsQuery,
                range[0],
                range[1],
                dictionaries,
                running);
        slice.pull(cursor);
        return null;
      } catch (CorruptIndexException e) {
        return source.store().quarantine(source.bucket(), e);
      } catch (UncheckedIOException e) { // a puller's, or a damaged block met reading _raw
        if (e.getCause() instanceof CorruptIndexException corrupt) {
          return source.store().quarantine(source.bucket(), corrupt);
        }
        throw e.getCause();
      } finally {
        totals.read.addAndGet(cursor == null ? 0 : cursor.eventsRead());
        totals.add(ScanStats.Costs.journalSince(journalBefore));
        visitor.close();
      }
    }
  }
}
