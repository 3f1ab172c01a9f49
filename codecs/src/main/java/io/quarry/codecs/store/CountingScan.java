package io.quarry.codecs.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;

/**
 * The batch scan that counts part of its matches instead of visiting them ({@link
 * EventStore#pullParallelCounting}): it owns the choice, bucket by bucket, of what is counted up
 * front and what is visited. An event bucket counts {@code counted}'s documents in the time range
 * from the term index ({@code IndexSearcher.count}: a term's document frequency, a segment's live
 * documents where Lucene can) and is visited for the rest of {@code query}. A block bucket's
 * documents are blocks, not events: it counts its blocks' events only when {@code counted} matches
 * everything and the bucket lies wholly inside the time range, and otherwise counts nothing and has
 * every event of its candidate blocks visited (the caller checks each against its filter).
 */
final class CountingScan {
  private CountingScan() {}

  /**
   * Counts {@code counted}'s matches among {@code sources} into {@code countedSink}, then visits
   * the rest of {@code query}'s on {@code executor}, each slice read by a {@link ScanSlice} from
   * {@code slices}.
   */
  static ScanStats run(
      List<TimeOrderedScan.Source> sources,
      Query query,
      Query counted,
      long earliestMicros,
      long latestMicros,
      LongConsumer countedSink,
      Supplier<ScanSlice> slices,
      ExecutorService executor)
      throws IOException {
    Query rest = rest(query, counted);
    long documents = 0;
    long countStarted = System.nanoTime();
    List<TimeOrderedScan.Source> visited = new ArrayList<>();
    for (TimeOrderedScan.Source source : sources) {
      if (source.bucket().format() == BucketFormat.BLOCKS) {
        // a block document is not an event: a bucket wholly in range counts its blocks'
        // events when every event counts, else its candidates' events are visited
        Bucket bucket = source.bucket();
        if (counted instanceof MatchAllDocsQuery
            && bucket.minTime() >= earliestMicros
            && bucket.maxTime() < latestMicros) {
          documents += BlockSequences.events(source.searcher().getIndexReader());
        } else {
          visited.add(source);
        }
        continue;
      }
      visited.add(source);
      documents +=
          source
              .searcher()
              .count(TimeOrderedScan.withTimeRange(counted, source, earliestMicros, latestMicros));
    }
    long countNanos = System.nanoTime() - countStarted;
    countedSink.accept(documents);
    ScanStats scanned =
        new ParallelScan(visited, rest, query, earliestMicros, latestMicros)
            .run(slices, executor)
            .plusCosts(ScanStats.Costs.indexLookup(countNanos));
    return new ScanStats(
        scanned.indexes(),
        sources.size(),
        scanned.bucketsSkipped(),
        scanned.segments(),
        scanned.segmentsSkipped(),
        scanned.eventsRead(),
        scanned.costs(),
        scanned.warnings());
  }

  /** What an event bucket visits: {@code query}'s matches that {@code counted} does not count. */
  private static Query rest(Query query, Query counted) {
    return counted instanceof MatchAllDocsQuery || counted.equals(query)
        ? new MatchNoDocsQuery("every candidate was counted")
        : new BooleanQuery.Builder()
            .add(query, BooleanClause.Occur.FILTER)
            .add(counted, BooleanClause.Occur.MUST_NOT)
            .build();
  }
}
