package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pull form of the time-ordered scan: pulled 1 to 700 events at a time it hands out the events
 * the push form does, in the same order (newest first, checked against the written events), in both
 * layouts, over many buckets and segments whose times overlap; and a {@code head 10} pulled once
 * decodes at most one journal block per segment, none when it asks nothing the payload holds.
 */
class TimeOrderedCursorTest {
  @TempDir Path data;

  private static final long START = 1_700_000_000_000_000L;
  private static final String[] METHODS = {"GET", "POST", "PUT"};

  private static Map<String, IndexOptions> options() {
    return Map.of(
        "events", IndexOptions.builder().format(BucketFormat.EVENTS).build(),
        "blocks", IndexOptions.builder().format(BucketFormat.BLOCKS).blockEvents(64).build());
  }

  /**
   * Writes {@code batches} batches of 300 events with distinct times to both indexes: each batch's
   * times spread over the whole range when {@code overlapping}, else the batches follow each other
   * in time. Both indexes roll their hot bucket after every second batch.
   */
  private List<Event> write(EventStore store, int batches, boolean overlapping) throws Exception {
    Random random = new Random(7);
    Set<Long> times = new HashSet<>();
    List<Event> written = new ArrayList<>();
    for (int batch = 0; batch < batches; batch++) {
      List<Event> events = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        long time;
        do {
          long offset = overlapping ? random.nextInt(4_000_000) : batch * 1_000_000L + i * 1_000L;
          time = START + offset * 1_000L;
        } while (!times.add(time));
        events.add(
            new Event(
                time,
                "line " + batch + " " + i + (i % 3 == 0 ? " third" : ""),
                "web",
                "/a",
                "st",
                Map.of("method", List.of(METHODS[random.nextInt(METHODS.length)]))));
      }
      store.write("events", events);
      store.write("blocks", events);
      written.addAll(events);
      if (batch % 2 == 1) {
        store.index("events").rollHotBucket();
        store.index("blocks").rollHotBucket();
      }
    }
    return written;
  }

  private static String describe(StoredEvent event) {
    return event.timeMicros() + " " + event.raw() + " " + event.indexedField("method");
  }

  /** The events of a scan pulled {@code step} at a time (push: {@code Integer.MAX_VALUE}). */
  private static List<String> pulled(
      EventStore store, String index, Query query, long from, long to, int step) throws Exception {
    List<String> seen = new ArrayList<>();
    int[] visitedThisCall = {0};
    store.scan(
        List.of(index),
        query,
        from,
        to,
        event -> {
          visitedThisCall[0]++;
          seen.add(describe(event));
          return true;
        },
        cursor -> {
          boolean more = true;
          while (more) {
            visitedThisCall[0] = 0;
            more = cursor.advance(step);
            assertThat(visitedThisCall[0]).isLessThanOrEqualTo(step);
            assertThat(cursor.ended()).isEqualTo(!more);
          }
          assertThat(cursor.advance(step)).isFalse();
        });
    return seen;
  }

  private static List<String> expected(
      List<Event> written, java.util.function.Predicate<Event> kept) {
    return written.stream()
        .filter(kept)
        .sorted(Comparator.comparingLong(Event::timeMicros).reversed())
        .map(e -> e.timeMicros() + " " + e.raw() + " " + e.indexedFields().get("method"))
        .toList();
  }

  @Test
  void pulledAFewAtATimeTheEventsComeAsPushedNewestFirst() throws Exception {
    try (EventStore store = EventStore.open(data, options())) {
      List<Event> written = write(store, 6, true);
      long from = START + 1_000_000_000L; // cuts through blocks
      long to = START + 3_000_000_000L;
      Query thirds = new TermQuery(new Term(EventFields.TOKENS, "third"));
      List<String> all = expected(written, e -> true);
      List<String> ranged = expected(written, e -> e.timeMicros() >= from && e.timeMicros() < to);
      List<String> third = expected(written, e -> e.raw().endsWith(" third"));
      for (String index : List.of("events", "blocks")) {
        assertThat(store.index(index).bucketCount()).as(index).isGreaterThan(1);
        Query any = new MatchAllDocsQuery();
        assertThat(pulled(store, index, any, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE))
            .as(index)
            .isEqualTo(all);
        for (int step = 1; step <= 700; step++) {
          assertThat(pulled(store, index, any, Long.MIN_VALUE, Long.MAX_VALUE, step))
              .as(index + " pulled " + step + " at a time")
              .isEqualTo(all);
        }
        for (int step : new int[] {1, 2, 3, 5, 8, 13, 64, 100, 257, 700}) {
          assertThat(pulled(store, index, any, from, to, step))
              .as(index + " in a range, " + step + " at a time")
              .isEqualTo(ranged);
          // a block bucket visits every event of its candidate blocks: checked as a search does
          assertThat(
                  pulled(store, index, thirds, Long.MIN_VALUE, Long.MAX_VALUE, step).stream()
                      .filter(e -> e.contains(" third ["))
                      .toList())
              .as(index + " a term, " + step + " at a time")
              .isEqualTo(third);
        }
      }
    }
  }

  /** A scan pulled once for {@code events} events: what it visited, read and decoded. */
  private record Head(List<String> seen, ScanStats stats) {}

  private static Head head(
      EventStore store, String index, int events, Function<StoredEvent, String> describe)
      throws Exception {
    List<String> seen = new ArrayList<>();
    ScanStats stats =
        store.scan(
            List.of(index),
            new MatchAllDocsQuery(),
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            event -> seen.add(describe.apply(event)),
            cursor -> assertThat(cursor.advance(events)).isTrue());
    return new Head(seen, stats);
  }

  @Test
  void aHeadPulledOnceDecodesAtMostOneBlockPerSegment() throws Exception {
    try (EventStore store = EventStore.open(data, options())) {
      List<Event> written = write(store, 6, false); // the batches follow each other in time
      Head tenRaw = head(store, "blocks", 10, TimeOrderedCursorTest::describe);
      assertThat(tenRaw.seen()).isEqualTo(expected(written, e -> true).subList(0, 10));
      assertThat(tenRaw.stats().segments()).isGreaterThan(1);
      assertThat(tenRaw.stats().eventsRead()).isEqualTo(10);
      assertThat(tenRaw.stats().costs().journalBlocks())
          .as("only the newest block is decoded")
          .isEqualTo(1);
      // a field every event of a block has one value of: the payload stays undecoded
      Head tenMethods = head(store, "blocks", 10, e -> e.indexedField("method").toString());
      assertThat(tenMethods.seen())
          .isEqualTo(
              written.stream()
                  .sorted(Comparator.comparingLong(Event::timeMicros).reversed())
                  .limit(10)
                  .map(e -> e.indexedFields().get("method").toString())
                  .toList());
      assertThat(tenMethods.stats().costs().journalBlocks()).isZero();
    }
  }

  @Test
  void overlappingSegmentsDecodeAtMostTheirHeadBlocks() throws Exception {
    try (EventStore store = EventStore.open(data, options())) {
      List<Event> written = write(store, 6, true);
      Head ten = head(store, "blocks", 10, TimeOrderedCursorTest::describe);
      assertThat(ten.seen()).isEqualTo(expected(written, e -> true).subList(0, 10));
      assertThat(ten.stats().costs().journalBlocks())
          .isPositive()
          .isLessThanOrEqualTo(ten.stats().segments());
      assertThat(head(store, "events", 10, TimeOrderedCursorTest::describe).seen())
          .isEqualTo(ten.seen());
    }
  }
}
