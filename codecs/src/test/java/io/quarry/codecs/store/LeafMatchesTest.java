package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermRangeQuery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A parallel scan of a block segment cut into many slices, which share its candidate blocks ({@link
 * LeafMatches}): the same events as the event layout's scan of the same events for a term some
 * blocks hold, a term every block holds, a term range (the {@code status>=500} shape), a term no
 * block holds (the segment skipped once) and a conjunction; the scan says its slices shared them.
 */
class LeafMatchesTest {
  @TempDir Path data;
  private final ExecutorService pool = Executors.newFixedThreadPool(3);

  @AfterEach
  void stopPool() {
    pool.shutdownNow();
  }

  private static final long START = 1_700_000_000_000_000L;
  private static final int EVENTS = 3000;

  /** Event {@code i}: a word every event has, one of a few, a rare one in a few runs of events. */
  private static Event event(int i) {
    String rare = (i / 50) % 7 == 3 && i % 5 == 0 ? " rarest" : "";
    String status = Integer.toString(new int[] {200, 200, 404, 500, 503, 301}[i % 6]);
    return new Event(
        START + i * 1_000L,
        "line " + i + " everywhere s" + status + " w" + (i % 11) + rare,
        "h",
        "src",
        "st",
        Map.of());
  }

  @Test
  void slicesOfOneSegmentShareItsCandidateBlocks() throws Exception {
    IndexOptions blocks = IndexOptions.builder().format(BucketFormat.BLOCKS).blockEvents(4).build();
    IndexOptions events = IndexOptions.builder().format(BucketFormat.EVENTS).build();
    try (EventStore store = EventStore.open(data, Map.of("bl", blocks, "ev", events))) {
      List<Event> batch = new ArrayList<>();
      for (int i = 0; i < EVENTS; i++) {
        batch.add(event(i));
      }
      store.write("bl", batch);
      store.write("ev", batch);
      Query range = TermRangeQuery.newStringRange(EventFields.TOKENS, "s500", "s599", true, true);
      Query both =
          new BooleanQuery.Builder()
              .add(new TermQuery(new Term(EventFields.TOKENS, "w3")), BooleanClause.Occur.FILTER)
              .add(range, BooleanClause.Occur.FILTER)
              .build();
      for (Query query :
          List.of(
              new TermQuery(new Term(EventFields.TOKENS, "rarest")),
              new TermQuery(new Term(EventFields.TOKENS, "everywhere")),
              range,
              both,
              new TermQuery(new Term(EventFields.TOKENS, "nowhere")))) {
        List<String> expected = seen(store, "ev", query, null);
        ScanStats[] scanned = new ScanStats[1];
        List<String> candidates = seen(store, "bl", query, scanned);
        List<String> checked =
            candidates.stream().filter(raw -> matches(query, raw)).sorted().toList();
        assertThat(checked).as(query.toString()).isEqualTo(expected);
        assertThat(candidates).as(query.toString()).containsAll(expected);
        ScanStats stats = scanned[0];
        if (query.toString().contains("nowhere")) {
          assertThat(candidates).isEmpty();
          assertThat(stats.segmentsSkipped()).as("skipped once").isEqualTo(stats.segments());
        } else {
          assertThat(expected).as(query.toString()).isNotEmpty();
        }
        if (!query.toString().contains("nowhere")) { // 750 blocks: slices of one segment
          assertThat(stats.costs().sharedMatchSlices()).as(query.toString()).isGreaterThan(2);
        }
      }
    }
  }

  /** Whether event text {@code raw} matches {@code query} (one of the test's shapes). */
  private static boolean matches(Query query, String raw) {
    List<String> words = List.of(raw.split(" "));
    String text = query.toString();
    if (text.contains("rarest")) {
      return words.contains("rarest");
    }
    if (text.contains("everywhere")) {
      return true;
    }
    boolean error = words.contains("s500") || words.contains("s503");
    return text.contains("w3") ? error && words.contains("w3") : error;
  }

  private List<String> seen(EventStore store, String index, Query query, ScanStats[] stats)
      throws Exception {
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    ScanStats scanned =
        Scans.visitAll(
            store,
            List.of(index),
            query,
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            () -> e -> seen.add(e.raw()),
            pool);
    if (stats != null) {
      stats[0] = scanned;
    }
    List<String> sorted = new ArrayList<>(seen);
    Collections.sort(sorted);
    return sorted;
  }
}
