package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A parallel scan of blocks wholly in range decodes a block's journal payload only when a visitor
 * asks for something the payload holds: a visitor reading only fields every event of the block has
 * one value of (by ordinal or by value) decompresses no journal block ({@link
 * ScanStats.Costs#journalBlocks} stays 0), and its answer is the one a visitor that also reads
 * {@code _raw} (which decodes every block) gets, and the event layout's. An event's time, a field
 * some events lack, a numeric field, or a time range cutting through blocks decode them.
 */
class UnreadPayloadTest {
  @TempDir Path data;
  private final ExecutorService pool = Executors.newFixedThreadPool(3);

  @AfterEach
  void stopPool() {
    pool.shutdownNow();
  }

  private static final long START = 1_700_000_000_000_000L;
  private static final String[] METHODS = {"GET", "POST", "PUT", "é"};

  private final List<Event> written = new ArrayList<>();

  private void write(BucketFormat format, String index, EventStore store) throws Exception {
    Random random = new Random(42);
    Set<Long> times = new HashSet<>();
    for (int batch = 0; batch < 4; batch++) {
      List<Event> events = new ArrayList<>();
      for (int i = 0; i < 700; i++) {
        long time;
        do {
          time = START + random.nextInt(4_000_000) * 1_000L;
        } while (!times.add(time));
        Map<String, List<String>> fields = new LinkedHashMap<>();
        fields.put("method", List.of(METHODS[random.nextInt(METHODS.length)]));
        fields.put("status", List.of(Integer.toString(200 + 100 * random.nextInt(4))));
        if (random.nextInt(4) == 0) {
          fields.put("user", List.of("u" + random.nextInt(5)));
        }
        fields.put("bytes", List.of(Integer.toString(random.nextInt(1000))));
        events.add(
            new Event(
                time, "line " + batch + " " + i, "web" + random.nextInt(2), "/a", "st", fields));
      }
      store.write(index, events);
      if (format == BucketFormat.BLOCKS) {
        written.addAll(events);
      }
    }
  }

  /** One scan's answer: each event's description, counted, and the journal blocks it decoded. */
  private record Answer(Map<String, Long> described, long journalBlocks) {}

  private Answer scan(
      EventStore store, String index, long from, long to, Function<StoredEvent, String> describe)
      throws Exception {
    Map<String, Long> described = new ConcurrentHashMap<>();
    ScanStats stats =
        Scans.visitEach(
            store, index, from, to, RecordingVisitor.recording(described, describe), pool);
    return new Answer(described, stats.costs().journalBlocks());
  }

  private static String byOrdinal(StoredEvent event, String field) {
    long ordinal = event.keywordOrdinal(field);
    return ordinal == StoredEvent.NO_ORDINAL
        ? "values " + event.indexedField(field)
        : event.keywordText(field, ordinal);
  }

  private static Map<String, Long> expected(List<Event> events, Function<Event, String> describe) {
    Map<String, Long> counts = new java.util.HashMap<>();
    events.forEach(e -> counts.merge(describe.apply(e), 1L, Long::sum));
    return counts;
  }

  @Test
  void fieldsOutsideThePayloadAreReadWithoutDecodingIt() throws Exception {
    Map<String, IndexOptions> options =
        Map.of(
            "blocks",
            IndexOptions.builder()
                .format(BucketFormat.BLOCKS)
                .fieldTypes(Map.of("bytes", IndexedFieldType.LONG))
                .build(),
            "events",
            IndexOptions.builder()
                .format(BucketFormat.EVENTS)
                .fieldTypes(Map.of("bytes", IndexedFieldType.LONG))
                .build());
    try (EventStore store = EventStore.open(data, options)) {
      write(BucketFormat.BLOCKS, "blocks", store);
      write(BucketFormat.EVENTS, "events", store);
    }
    try (EventStore store = EventStore.open(data, options)) {
      long all = Long.MIN_VALUE;
      long none = Long.MAX_VALUE;

      // keyword fields every event has, by ordinal and by value, and a default field
      Function<StoredEvent, String> keywords =
          e -> byOrdinal(e, "method") + " " + byOrdinal(e, "status") + " " + e.host();
      Answer skipped = scan(store, "blocks", all, none, keywords);
      Answer decoded = scan(store, "blocks", all, none, e -> keywords.apply(e) + e.raw().charAt(0));
      Map<String, Long> truth =
          expected(
              written,
              e ->
                  e.indexedFields().get("method").get(0)
                      + " "
                      + e.indexedFields().get("status").get(0)
                      + " "
                      + e.host());
      assertThat(skipped.described()).isEqualTo(truth);
      assertThat(skipped.journalBlocks()).as("no payload decoded").isZero();
      assertThat(decoded.journalBlocks()).as("_raw decodes every block").isPositive();
      Function<StoredEvent, String> values =
          e ->
              e.indexedField("method").get(0)
                  + " "
                  + e.indexedField("status").get(0)
                  + " "
                  + e.host();
      Answer byValue = scan(store, "blocks", all, none, values);
      assertThat(byValue.described()).isEqualTo(truth);
      assertThat(byValue.journalBlocks()).isZero();
      assertThat(scan(store, "events", all, none, keywords).described()).isEqualTo(truth);

      // a keyword field only some events have (user) is held as codes with a "no value" code
      // (no text of an event without it mentions it): read without decoding, as the event layout
      Function<StoredEvent, String> optional =
          e -> byOrdinal(e, "method") + " " + e.indexedField("user");
      Answer partial = scan(store, "blocks", all, none, optional);
      assertThat(partial.described())
          .isEqualTo(scan(store, "events", all, none, optional).described());
      assertThat(partial.journalBlocks()).as("user from its codes").isZero();

      // what the payload holds decodes the block, and reads the same as the event layout
      List<Function<StoredEvent, String>> payload =
          List.of(
              e -> byOrdinal(e, "status") + " " + e.indexedField("bytes"),
              e -> byOrdinal(e, "method") + " " + e.timeMicros(),
              e ->
                  byOrdinal(e, "method")
                      + " "
                      + new java.util.TreeSet<>(e.indexedFields().keySet()));
      for (Function<StoredEvent, String> describe : payload) {
        Answer blocks = scan(store, "blocks", all, none, describe);
        assertThat(blocks.described())
            .isEqualTo(scan(store, "events", all, none, describe).described());
        assertThat(blocks.journalBlocks()).isPositive();
      }

      // a time range through the blocks: their events' times are checked, so they are decoded
      long from = START + 1_000_000_000L;
      long to = START + 3_000_000_000L;
      Answer cut = scan(store, "blocks", from, to, keywords);
      assertThat(cut.described())
          .isEqualTo(
              expected(
                  written.stream()
                      .filter(e -> e.timeMicros() >= from && e.timeMicros() < to)
                      .toList(),
                  e ->
                      e.indexedFields().get("method").get(0)
                          + " "
                          + e.indexedFields().get("status").get(0)
                          + " "
                          + e.host()));
      assertThat(cut.journalBlocks()).isPositive();
      AtomicLong total = new AtomicLong();
      truth.values().forEach(total::addAndGet);
      assertThat(total.get()).isEqualTo(written.size());
    }
  }
}
