package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.TermQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventStoreTest {
  @TempDir Path dataDirectory;

  private static Event event(long time, String raw) {
    return new Event(time, raw, "web-01", "/var/log/access.log", "access_combined", Map.of());
  }

  @Test
  void eventsSurviveReopenAndComeBackNewestFirstAcrossIndexes() throws Exception {
    try (EventStore store = EventStore.open(dataDirectory, List.of("main", "web"))) {
      store.write("main", List.of(event(1_000, "one"), event(3_000, "three")));
      store.write("web", List.of(event(2_000, "two")));
      store.write(
          "main",
          List.of(
              new Event(4_000, "four", "h", "s", "st", Map.of("status", List.of("404", "500")))));
    }
    try (EventStore store = EventStore.open(dataDirectory, List.of("main", "web"))) {
      List<StoredEvent> seen = new ArrayList<>();
      ScanStats stats =
          store.scan(
              List.of("main", "web"),
              new MatchAllDocsQuery(),
              Long.MIN_VALUE,
              Long.MAX_VALUE,
              e -> {
                e.event(); // read everything while the segment is being visited
                return seen.add(e);
              });
      assertThat(seen)
          .extracting(e -> e.event().raw())
          .containsExactly("four", "three", "two", "one");
      assertThat(seen)
          .extracting(StoredEvent::index)
          .containsExactly("main", "main", "web", "main");
      assertThat(seen.get(0).event().indexedFields())
          .containsEntry("status", List.of("404", "500"));
      assertThat(stats.eventsRead()).isEqualTo(4);
    }
  }

  @Test
  void typedIndexTimeFieldsRoundTripAndBadValuesAreRejectedBeforeLogging() throws Exception {
    IndexOptions options =
        IndexOptions.builder()
            .fieldTypes(Map.of("status", IndexedFieldType.LONG, "ms", IndexedFieldType.DOUBLE))
            .build();
    Event good =
        new Event(
            5_000,
            "GET /cart.do 200",
            "Web-01",
            "/var/log/access.log",
            "access_combined",
            Map.of(
                "status", List.of("200"),
                "ms", List.of("12.5", "3"),
                "region", List.of("EU-West", "eu")));
    Event bad = new Event(6_000, "bad", "h", "s", "st", Map.of("status", List.of("two hundred")));
    try (EventStore store = EventStore.open(dataDirectory, Map.of("main", options))) {
      store.write("main", List.of(good));
      assertThat(store.index("main").problem(bad))
          .isEqualTo("field 'status' is declared long: 'two hundred' is not a long");
      assertThatThrownBy(() -> store.write("main", List.of(good, bad)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("event 1: field 'status'");
    }
    try (EventStore store = EventStore.open(dataDirectory, Map.of("main", options))) {
      List<StoredEvent> seen = new ArrayList<>();
      // typed values are also terms: status=200 is one term lookup whatever the type
      store.scan(
          List.of("main"),
          new TermQuery(new Term(EventFields.keywordField("status"), "200")),
          Long.MIN_VALUE,
          Long.MAX_VALUE,
          e -> {
            e.event(); // read everything while the segment is being visited
            return seen.add(e);
          });
      assertThat(seen).hasSize(1); // the rejected batch wrote nothing, not even its good event
      // one field read alone, then all of them: each doc-values column is read once per event
      List<List<String>> single = new ArrayList<>();
      List<Map<String, List<String>>> all = new ArrayList<>();
      store.scan(
          List.of("main"),
          new MatchAllDocsQuery(),
          Long.MIN_VALUE,
          Long.MAX_VALUE,
          e -> {
            single.add(e.indexedField("ms"));
            all.add(e.indexedFields());
            assertThat(e.indexedField("missing")).isNull();
            return true;
          });
      assertThat(single).containsExactly(List.of("3.0", "12.5"));
      assertThat(all.get(0)).containsOnlyKeys("status", "ms", "region");
      Event read = seen.get(0).event();
      assertThat(read.host()).isEqualTo("Web-01");
      assertThat(read.sourcetype()).isEqualTo("access_combined");
      assertThat(read.timeMicros()).isEqualTo(5_000);
      assertThat(read.indexedFields())
          .containsEntry("status", List.of("200"))
          .containsEntry("ms", List.of("3.0", "12.5"))
          .containsEntry("region", List.of("EU-West", "eu"));
      assertThat(
              store
                  .scan(
                      List.of("main"),
                      org.apache.lucene.document.DoublePoint.newRangeQuery(
                          EventFields.valuesField("ms", IndexedFieldType.DOUBLE), 10, 20),
                      Long.MIN_VALUE,
                      Long.MAX_VALUE,
                      e -> true)
                  .eventsRead())
          .isEqualTo(1);
    }
  }

  @Test
  void parallelScanVisitsTheSameEventsAsTheOrderedOne() throws Exception {
    java.util.concurrent.ExecutorService pool = Executors.newFixedThreadPool(3);
    try (EventStore store = EventStore.open(dataDirectory, List.of("main", "web"))) {
      for (int batch = 0; batch < 5; batch++) {
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
          events.add(
              event(
                  batch * 1_000_000L + i,
                  "batch" + batch + " n" + i + (i % 3 == 0 ? " fizz" : "")));
        }
        store.write(batch % 2 == 0 ? "main" : "web", events);
        store.index("main").commit(); // several segments
      }
      TermQuery fizz = new TermQuery(new Term(EventFields.TOKENS, "fizz"));
      List<String> ordered = new ArrayList<>();
      store.scan(
          List.of("main", "web"), fizz, 1_000_000L, Long.MAX_VALUE, e -> ordered.add(e.raw()));
      java.util.Queue<String> parallel = new java.util.concurrent.ConcurrentLinkedQueue<>();
      java.util.concurrent.atomic.AtomicInteger finished =
          new java.util.concurrent.atomic.AtomicInteger();
      java.util.concurrent.atomic.AtomicInteger visitors =
          new java.util.concurrent.atomic.AtomicInteger();
      ScanStats stats =
          Scans.visitAll(
              store,
              List.of("main", "web"),
              fizz,
              1_000_000L,
              Long.MAX_VALUE,
              () -> {
                visitors.incrementAndGet();
                return new EventVisitor() {
                  @Override
                  public boolean visit(StoredEvent event) {
                    parallel.add(event.raw());
                    return true;
                  }

                  @Override
                  public void finish() {
                    finished.incrementAndGet();
                  }
                };
              },
              pool);
      assertThat(ordered).hasSize(4 * 17);
      assertThat(parallel).containsExactlyInAnyOrderElementsOf(ordered);
      assertThat(stats.eventsRead()).isEqualTo(ordered.size());
      assertThat(finished.get()).isEqualTo(visitors.get()).isGreaterThan(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void rawTextIsAViewOfTheJournalForAsciiEventsAndTheStringOtherwise() throws Exception {
    try (EventStore store = EventStore.open(dataDirectory, List.of("main"))) {
      List<Event> events = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        String raw = i % 7 == 0 ? "caf\u00e9 " + i + " \u2603" : "10.0.0." + i + " GET /x?n=" + i;
        events.add(event(i, raw));
      }
      store.write("main", events);
      List<String> texts = new ArrayList<>();
      List<String> raws = new ArrayList<>();
      List<Boolean> views = new ArrayList<>();
      store.scan(
          List.of("main"),
          new MatchAllDocsQuery(),
          Long.MIN_VALUE,
          Long.MAX_VALUE,
          e -> {
            CharSequence text = e.rawText();
            views.add(!(text instanceof String));
            texts.add(text.toString() + "|" + text.subSequence(1, 4) + "|" + text.charAt(0));
            raws.add(e.raw() + "|" + e.raw().substring(1, 4) + "|" + e.raw().charAt(0));
            return true;
          });
      assertThat(texts).hasSize(300).isEqualTo(raws);
      // ASCII events are views of the block, never a String; the others fall back to _raw
      for (int i = 0; i < 300; i++) {
        boolean ascii = (299 - i) % 7 != 0; // newest first
        assertThat(views.get(i)).as("event %d", i).isEqualTo(ascii);
      }
    }
  }

  @Test
  void indexTimeFieldsOfEarlierEventsCanStillBeReadLate() throws Exception {
    try (EventStore store = EventStore.open(dataDirectory, List.of("main"))) {
      List<Event> events = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        events.add(
            new Event(
                1_000L * i,
                "e" + i,
                "h" + i,
                "s",
                "st",
                Map.of("a", List.of("a" + i), "b", List.of("b" + i))));
      }
      store.write("main", events);
      List<StoredEvent> held = new ArrayList<>();
      List<String> late = new ArrayList<>();
      store.scan(
          List.of("main"),
          new MatchAllDocsQuery(),
          Long.MIN_VALUE,
          Long.MAX_VALUE,
          new EventVisitor() {
            @Override
            public boolean visit(StoredEvent event) {
              if (held.size() % 2 == 1) {
                event.indexedField("b"); // every other event: column b moves ahead
                event.host(); // and so does host's
              }
              return held.add(event);
            }

            @Override
            public void finish() {
              held.forEach(e -> late.add(e.indexedField("b").get(0) + "/" + e.host()));
            }
          });
      assertThat(late).hasSize(50).first().isEqualTo("b49/h49");
      assertThat(late).last().isEqualTo("b0/h0");
      assertThat(late)
          .allMatch(s -> s.substring(1, s.indexOf('/')).equals(s.substring(s.indexOf('/') + 2)));
    }
  }

  @Test
  void termIndexTimeRangeAndEarlyStop() throws Exception {
    try (EventStore store = EventStore.open(dataDirectory, List.of("main"))) {
      List<Event> events = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        events.add(event(i * 1_000_000L, "GET /cart.do status=" + (i % 2 == 0 ? "200" : "404")));
      }
      store.write("main", events);
      List<Long> times = new ArrayList<>();
      store.scan(
          List.of("main"),
          new TermQuery(new Term(EventFields.TOKENS, "404")),
          10_000_000L,
          20_000_000L,
          e -> times.add(e.event().timeMicros()));
      assertThat(times)
          .containsExactly(19_000_000L, 17_000_000L, 15_000_000L, 13_000_000L, 11_000_000L);
      List<Long> firstThree = new ArrayList<>();
      ScanStats stats =
          store.scan(
              List.of("main"),
              new TermQuery(new Term(EventFields.keywordField("host"), "web-01")),
              Long.MIN_VALUE,
              Long.MAX_VALUE,
              e -> {
                firstThree.add(e.event().timeMicros());
                return firstThree.size() < 3;
              });
      assertThat(firstThree).containsExactly(99_000_000L, 98_000_000L, 97_000_000L);
      assertThat(stats.eventsRead()).isEqualTo(3);
    }
  }

  @Test
  void concurrentWritersShareCommitsAndLoseNothing() throws Exception {
    try (EventStore store = EventStore.open(dataDirectory, List.of("main"))) {
      ExecutorService pool = Executors.newFixedThreadPool(8);
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int thread = t;
        futures.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 25; i++) {
                    store.write(
                        "main", List.of(event(thread * 1000L + i, "t" + thread + " e" + i)));
                  }
                  return null;
                }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
      pool.shutdown();
      assertThat(store.index("main").count()).isEqualTo(200L);
    }
  }

  @Test
  void resolvesPatternsAndRejectsBadNames() throws Exception {
    try (EventStore store =
        EventStore.open(dataDirectory, List.of("main", "web", "web2", "_internal"))) {
      assertThat(store.resolve(List.of("*"))).containsExactly("main", "web", "web2");
      assertThat(store.resolve(List.of("WEB*"))).containsExactly("web", "web2");
      assertThat(store.resolve(List.of("_internal", "main"))).containsExactly("_internal", "main");
    }
    assertThatThrownBy(() -> EventStore.open(dataDirectory, List.of("Bad Name")))
        .hasMessageContaining("invalid index name 'Bad Name'");
  }

  @Test
  void bytesByKindAccountForTheSegmentsPackedOrNot() throws Exception {
    try (EventStore store = EventStore.open(dataDirectory, List.of("main"))) {
      List<Event> events = new ArrayList<>();
      for (int i = 0; i < 5_000; i++) {
        events.add(
            event(1_000L * i, "GET /item/" + i + " status=" + (200 + i % 5) + " user" + i % 97));
      }
      store.write("main", events);
      IndexStore index = store.index("main");
      Map<String, Long> kinds = index.bytesByKind();
      assertThat(kinds.keySet())
          .containsExactly(
              "docValues", "journal", "other", "points", "postings", "termFilters", "terms");
      assertThat(kinds.get("journal")).isPositive();
      assertThat(kinds.get("postings")).isPositive();
      assertThat(kinds.get("terms")).isPositive();
      assertThat(kinds.get("docValues")).isPositive();
      assertThat(kinds.get("points")).isPositive();
      long segments = kinds.values().stream().mapToLong(Long::longValue).sum();
      index.commit(); // every searchable segment's files now sit in the bucket's directory
      long onDisk = index.buckets().stream().mapToLong(BucketInfo::bytes).sum();
      assertThat(segments)
          .as("the segments are all of the bucket but its commit point and lock")
          .isLessThanOrEqualTo(onDisk)
          .isGreaterThan(onDisk - 4096);
    }
  }
}
