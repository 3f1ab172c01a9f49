package io.quarry.codecs.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;

/**
 * Reads every event's index-time fields out of a store ({@link MixedFieldEvents}' events) the ways
 * searches do — the time-ordered scan (a listing) and the parallel scan's slices (a batch search),
 * over all time or a range that cuts blocks — and each event one of three ways, by the order it
 * comes in and a salt: {@link StoredEvent#indexedFields} at once (an every-field listing); by
 * ordinal first, then field by field (a column of a keyword field, {@code OrdinalColumn} then
 * {@code EventColumn}); or asking {@link StoredEvent#textLacks} first, then field by field and then
 * all of them. The event's text and time are read after its fields (a block's columns are asked
 * before anything decodes its payload). What the ways disagree on, and a {@code textLacks} that is
 * not so, are problems.
 */
final class IndexTimeFieldReads {
  /** How the events are scanned. */
  enum Scan {
    TIME_ORDERED,
    PARALLEL
  }

  /** Each event's fields by its number (sorted by name), and what went wrong reading them. */
  record Read(Map<Integer, Map<String, List<String>>> fields, List<String> problems) {}

  private IndexTimeFieldReads() {}

  /**
   * The fields of each event of {@code store} in {@code [earliest, latest)}, read by {@code scan}.
   */
  static Read read(
      IndexStore store, Scan scan, long earliest, long latest, int salt, ExecutorService executor)
      throws IOException {
    Map<Integer, Map<String, List<String>>> fields = new ConcurrentHashMap<>();
    Queue<String> problems = new ConcurrentLinkedQueue<>();
    java.util.concurrent.atomic.AtomicLong visits = new java.util.concurrent.atomic.AtomicLong();
    EventVisitor visitor =
        event -> {
          // the text and time read only after the fields: a block's columns are asked before
          // anything decodes its payload
          int way = (int) ((visits.getAndIncrement() + salt) % 3);
          Map<String, List<String>> read = fieldsOf(event, way, problems);
          int number = MixedFieldEvents.number(event.raw());
          if (event.timeMicros() != number * 1000L) {
            problems.add(event.raw() + " at " + event.timeMicros());
          }
          if (fields.put(number, read) != null) {
            problems.add("event " + number + " read twice");
          }
          return true;
        };
    List<TimeOrderedScan.Source> sources = new ArrayList<>();
    List<Bucket> buckets = store.bucketsOverlapping(Long.MIN_VALUE, Long.MAX_VALUE);
    List<IndexSearcher> searchers = new ArrayList<>();
    try {
      for (Bucket bucket : buckets) {
        IndexSearcher searcher = bucket.acquire();
        searchers.add(searcher);
        sources.add(new TimeOrderedScan.Source(store.name(), store, bucket, searcher));
      }
      if (scan == Scan.TIME_ORDERED) {
        TimeOrderedCursor cursor =
            new TimeOrderedCursor(sources, new MatchAllDocsQuery(), earliest, latest, visitor);
        while (cursor.advance(Integer.MAX_VALUE)) {
          // every event in range
        }
      } else {
        new ParallelScan(sources, new MatchAllDocsQuery(), earliest, latest)
            .run(() -> ScanSlice.visiting(visitor), executor);
      }
    } finally {
      for (int b = 0; b < searchers.size(); b++) {
        buckets.get(b).release(searchers.get(b));
      }
    }
    return new Read(fields, List.copyOf(problems));
  }

  /** One event's fields, read the {@code way}th way. */
  private static Map<String, List<String>> fieldsOf(
      StoredEvent event, int way, Queue<String> problems) {
    Map<String, List<String>> read = new TreeMap<>();
    List<String> lacking = new ArrayList<>();
    switch (way) {
      case 0 -> read.putAll(event.indexedFields());
      case 1 -> {
        for (String name : MixedFieldEvents.FIELDS) {
          long ordinal = event.keywordOrdinal(name);
          List<String> values = event.indexedField(name);
          if (ordinal >= 0 && !List.of(event.keywordText(name, ordinal)).equals(values)) {
            problems.add(
                event.raw()
                    + ": ordinal of "
                    + name
                    + " reads "
                    + ordinal
                    + ", its field "
                    + values);
          }
          if (values != null) {
            read.put(name, values);
          }
        }
      }
      default -> {
        for (String name : MixedFieldEvents.FIELDS) {
          boolean lacks = event.textLacks(name);
          List<String> values = event.indexedField(name);
          if (lacks) {
            lacking.add(name);
          }
          if (values != null) {
            read.put(name, values);
          }
        }
        if (!read.equals(new TreeMap<>(event.indexedFields()))) {
          problems.add(
              event.raw() + ": field by field " + read + ", all at once " + event.indexedFields());
        }
        for (String name : lacking) {
          if (read.containsKey(name) || event.raw().contains(name + "=")) {
            problems.add(event.raw() + ": textLacks(" + name + ") but it has " + read.get(name));
          }
        }
      }
    }
    return read;
  }
}
