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

  private final List<TimeOrderedScan.Source> sources;
  private final org.apache.lucene.search.Query query;
  private final org.apache.lucene.search.Query blockQuery;
  private final long earliest;
  private final long latest;

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
    java.util.concurrent.atomic.AtomicBoolean failed =
        new java.util.concurrent.atomic.AtomicBoolean();
    for (Slice slice : slices) {
      // a slice starting after another failed reads nothing (it makes no visitor)
      futures.add(executor.submit(() -> failed.get() ? null : slice.run(readers.get(), totals)));
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
        futures.forEach(f -> f.cancel(true));
        Thread.currentThread().interrupt();
        throw new IOException("search interrupted", e);
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof IOException io) {
          failure = failure == null ? io : failure;
        } else {
          // slices not started yet read nothing; running ones end (through their visitors'
          // control) before the caller gives back what the scan's visitors hand over
          failed.set(true);
          awaitAll(futures);
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
   * nothing a visitor hands over arrives after the scan returns or throws. Interrupted, cancels
   * what is left and returns with the interrupt set.
   */
  private static void awaitAll(List<Future<String>> futures) {
    for (Future<String> future : futures) {
      try {
        future.get();
      } catch (ExecutionException | java.util.concurrent.CancellationException e) {
        // another slice's failure: the first one is thrown
      } catch (InterruptedException e) {
        futures.forEach(f -> f.cancel(true));
        Thread.currentThread().interrupt();
        return;
      }
    }
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
    String run(ScanSlice slice, Totals totals) throws IOException {
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
                dictionaries);
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
