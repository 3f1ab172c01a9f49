package io.quarry.codecs.store;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.IntroSorter;

/**
 * A segment's candidate block documents ordered by their newest event, newest first (ties in doc
 * order), for a segment without Lucene's index sort (block layout 2, {@link BucketFormat}). The
 * time-ordered scan needs its blocks in that order; a layout 2 segment holds them in the order they
 * were written, so the order is made once per scan from {@code _time}'s doc values: a read and a
 * sort of one long per candidate block (a block holds up to {@link IndexOptions#blockEvents()}
 * events), instead of a rewrite of the stored fields at every flush and merge.
 *
 * <p>The blocks' bounds ({@link BlockBounds}: event count and oldest event) are read in the same
 * doc-id order pass, as doc values read forward only and the ordered blocks are not in doc order.
 *
 * @param docs the candidates' doc ids, newest block first
 * @param newest each one's newest event time ({@code Long.MAX_VALUE} when it has none)
 * @param events each one's event count, -1 when its bounds are unknown
 * @param oldest each one's oldest event time, when its bounds are known
 */
record BlockOrder(int[] docs, long[] newest, int[] events, long[] oldest) {

  /**
   * Reads every candidate of {@code candidates} with its {@code _time} and, when {@code bounds} is
   * not null, its bounds, and orders them.
   */
  static BlockOrder newestFirst(
      DocIdSetIterator candidates, NumericDocValues times, BlockBounds bounds) throws IOException {
    int[] docs = new int[16];
    long[] newest = new long[16];
    int[] events = new int[16];
    long[] oldest = new long[16];
    int size = 0;
    for (int doc = candidates.nextDoc();
        doc != DocIdSetIterator.NO_MORE_DOCS;
        doc = candidates.nextDoc()) {
      if (size == docs.length) {
        docs = Arrays.copyOf(docs, size * 2);
        newest = Arrays.copyOf(newest, size * 2);
        events = Arrays.copyOf(events, size * 2);
        oldest = Arrays.copyOf(oldest, size * 2);
      }
      docs[size] = doc;
      newest[size] = times.advanceExact(doc) ? times.longValue() : Long.MAX_VALUE;
      boolean known = bounds != null && bounds.read(doc);
      events[size] = known ? bounds.events : -1;
      oldest[size] = known ? bounds.oldestTime : Long.MIN_VALUE;
      size++;
    }
    int[] sortedDocs = docs;
    long[] sortedNewest = newest;
    int[] sortedEvents = events;
    long[] sortedOldest = oldest;
    new IntroSorter() {
      private long pivotTime;
      private int pivotDoc;

      @Override
      protected void swap(int i, int j) {
        swapInts(sortedDocs, i, j);
        swapLongs(sortedNewest, i, j);
        swapInts(sortedEvents, i, j);
        swapLongs(sortedOldest, i, j);
      }

      @Override
      protected void setPivot(int i) {
        pivotTime = sortedNewest[i];
        pivotDoc = sortedDocs[i];
      }

      @Override
      protected int comparePivot(int j) {
        int byTime = Long.compare(sortedNewest[j], pivotTime); // descending
        return byTime != 0 ? byTime : Integer.compare(pivotDoc, sortedDocs[j]);
      }

      @Override
      protected int compare(int i, int j) {
        int byTime = Long.compare(sortedNewest[j], sortedNewest[i]);
        return byTime != 0 ? byTime : Integer.compare(sortedDocs[i], sortedDocs[j]);
      }
    }.sort(0, size);
    return new BlockOrder(
        Arrays.copyOf(docs, size),
        Arrays.copyOf(newest, size),
        Arrays.copyOf(events, size),
        Arrays.copyOf(oldest, size));
  }

  private static void swapInts(int[] values, int i, int j) {
    int value = values[i];
    values[i] = values[j];
    values[j] = value;
  }

  private static void swapLongs(long[] values, int i, int j) {
    long value = values[i];
    values[i] = values[j];
    values[j] = value;
  }
}
