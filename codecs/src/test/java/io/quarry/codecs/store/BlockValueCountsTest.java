package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A block's value counts ({@link BlockValueCounts}) and the parallel scan's {@link
 * EventVisitor#blockShortcut}: the same random batches into an event index and a block index; a
 * visitor that takes every offered block it has counts for and visits the rest counts, per value of
 * each field, exactly what the event layout's events hold in the range — over ranges that cut
 * blocks, with multivalued fields, values differing in case, missing fields and a long-typed field
 * (no counts) — and is only offered blocks that lie wholly in the range.
 */
class BlockValueCountsTest {
  @TempDir Path data;
  private final ExecutorService pool = Executors.newFixedThreadPool(3);

  @AfterEach
  void stopPool() {
    pool.shutdownNow();
  }

  private static List<List<Event>> batches(Random random) {
    List<List<Event>> batches = new ArrayList<>();
    Set<Long> times = new HashSet<>();
    for (int b = 0; b < 10; b++) {
      int size = random.nextInt(3) == 0 ? 300 + random.nextInt(500) : 1 + random.nextInt(60);
      long base = 1_700_000_000_000_000L + b * 400_000_000L; // batches mostly in time order
      List<Event> batch = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        long time;
        do {
          time = base + random.nextInt(500_000) * 1_000L;
        } while (!times.add(time));
        Map<String, List<String>> fields = new LinkedHashMap<>();
        if (b % 3 != 0 || random.nextInt(50) != 0) { // some blocks lack the field in an event
          fields.put("level", List.of(new String[] {"info", "INFO", "warn"}[random.nextInt(3)]));
        }
        if (random.nextInt(4) == 0) {
          fields.put("tag", List.of("b", "A", "a"));
        } else if (b % 2 == 0) {
          fields.put("tag", List.of(random.nextBoolean() ? "a" : "c"));
        }
        fields.put("status", List.of(Integer.toString(200 + random.nextInt(4) * 100)));
        batch.add(
            new Event(
                time,
                "e" + b + "." + i,
                b == 4 ? "" : "host-" + random.nextInt(b % 2 == 0 ? 1 : 3),
                "src",
                "st",
                fields));
      }
      batches.add(batch);
    }
    return batches;
  }

  private static IndexOptions options(BucketFormat format) {
    return IndexOptions.builder()
        .fieldTypes(Map.of("status", IndexedFieldType.LONG))
        .format(format)
        .build();
  }

  private static final List<String> FIELDS = List.of("level", "tag", "host", "status");

  @Test
  void countsTakenFromBlocksEqualTheEventsCounted() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    Map<String, IndexOptions> both =
        Map.of("ev", options(BucketFormat.EVENTS), "bl", options(BucketFormat.BLOCKS));
    try (EventStore store = EventStore.open(data, both)) {
      for (List<Event> batch : batches(random)) {
        store.write("ev", batch);
        store.write("bl", batch);
      }
      for (int round = 0; round < 2; round++) {
        long low = 1_700_000_000_000_000L;
        long high = low + 4_000_000_000L;
        for (int r = 0; r < 12; r++) {
          long from = r == 0 ? Long.MIN_VALUE : low + (long) (random.nextDouble() * (high - low));
          long to = r == 0 ? Long.MAX_VALUE : from + (long) (random.nextDouble() * (high - from));
          for (String field : FIELDS) {
            Counted expected = count(store, "ev", field, from, to);
            Counted actual = count(store, "bl", field, from, to);
            String why = "seed " + seed + ", " + field + " in [" + from + ", " + to + ")";
            assertThat(actual.byValue).as(why).isEqualTo(expected.byValue);
            assertThat(actual.events).as(why).isEqualTo(expected.events);
            assertThat(expected.taken).as(why).isZero();
            if (field.equals("status")) {
              assertThat(actual.taken).as(why + ": a long field has no counts").isZero();
            }
            if (r == 0 && !field.equals("status")) {
              assertThat(actual.taken).as(why).isPositive();
            }
          }
        }
        store.index("bl").rollHotBucket(); // merged: ordinals of several segments' blocks
        store.index("ev").rollHotBucket();
      }
    }
  }

  /** Per value of {@code field}, events; events in range; events taken from block counts. */
  private record Counted(Map<String, Long> byValue, long events, long taken) {}

  private Counted count(EventStore store, String index, String field, long from, long to)
      throws Exception {
    Map<String, Long> byValue = new TreeMap<>();
    long[] events = new long[2]; // in range, taken
    Scans.visitEach(
        store,
        index,
        from,
        to,
        () ->
            new EventVisitor() {
              final Map<String, Long> mine = new HashMap<>();
              long seen;
              long taken;

              @Override
              public boolean visit(StoredEvent event) {
                assertThat(event.timeMicros()).isBetween(from, to - 1);
                seen++;
                List<String> values =
                    field.equals("host")
                        ? event.host().isEmpty() ? List.of() : List.of(event.host())
                        : event.indexedField(field);
                if (values != null) {
                  values.forEach(v -> mine.merge(v, 1L, Long::sum));
                }
                return true;
              }

              @Override
              public BlockShortcut blockShortcut(org.apache.lucene.index.LeafReader reader)
                  throws java.io.IOException {
                BlockValueCounts counts = BlockValueCounts.open(reader, field);
                return (doc, n, oldest, newest) -> {
                  assertThat(oldest).isGreaterThanOrEqualTo(from).isLessThanOrEqualTo(newest);
                  assertThat(newest).isLessThan(to);
                  if (counts == null || !counts.advanceExact(doc)) {
                    return DocShortcut.VISIT;
                  }
                  assertThat(counts.total()).isGreaterThanOrEqualTo(n);
                  for (int i = 0; i < counts.size(); i++) {
                    // ordinals and counts are read when asked for: in any order
                    int v = doc % 2 == 0 ? i : counts.size() - 1 - i;
                    mine.merge(
                        counts.dictionary().lookupOrd(counts.ord(v)).utf8ToString(),
                        (long) counts.count(v),
                        Long::sum);
                  }
                  seen += n;
                  taken += n;
                  return DocShortcut.TAKEN;
                };
              }

              @Override
              public void finish() {
                synchronized (byValue) {
                  mine.forEach((v, n) -> byValue.merge(v, n, Long::sum));
                  events[0] += seen;
                  events[1] += taken;
                }
              }
            },
        pool);
    return new Counted(byValue, events[0], events[1]);
  }
}
