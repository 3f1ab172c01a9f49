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
 * @param docs the candidates' doc ids, newest block first
 * @param newest each one's newest event time ({@code Long.MAX_VALUE} when it has none)
 */
record BlockOrder(int[] docs, long[] newest) {

  /** Reads every candidate of {@code candidates} with its {@code _time} and orders them. */
  static BlockOrder newestFirst(DocIdSetIterator candidates, NumericDocValues times)
      throws IOException {
    int[] docs = new int[16];
    long[] newest = new long[16];
    int size = 0;
    for (int doc = candidates.nextDoc();
        doc != DocIdSetIterator.NO_MORE_DOCS;
        doc = candidates.nextDoc()) {
      if (size == docs.length) {
        docs = Arrays.copyOf(docs, size * 2);
        newest = Arrays.copyOf(newest, size * 2);
      }
      docs[size] = doc;
      newest[size] = times.advanceExact(doc) ? times.longValue() : Long.MAX_VALUE;
      size++;
    }
    int[] sortedDocs = docs;
    long[] sortedNewest = newest;
    new IntroSorter() {
      private long pivotTime;
      private int pivotDoc;

      @Override
      protected void swap(int i, int j) {
        int doc = sortedDocs[i];
        sortedDocs[i] = sortedDocs[j];
        sortedDocs[j] = doc;
        long time = sortedNewest[i];
        sortedNewest[i] = sortedNewest[j];
        sortedNewest[j] = time;
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
    return new BlockOrder(Arrays.copyOf(docs, size), Arrays.copyOf(newest, size));
  }
}
