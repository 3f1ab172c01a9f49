package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A parallel scan hands a visitor that takes runs the events of blocks wholly in range as {@link
 * EventRun}s: each run's times, texts (by their offsets into the block's bytes), sourcetypes and
 * ASCII answer are those a visitor reading event by event sees, every event once; a range through
 * the blocks and blocks with non-ASCII texts included.
 */
class EventRunTest {
  @TempDir Path data;
  private final ExecutorService pool = Executors.newFixedThreadPool(3);
  private static final long START = 1_700_000_000_000_000L;

  @AfterEach
  void stopPool() {
    pool.shutdownNow();
  }

  private Map<String, Long> scan(EventStore store, long from, long to, boolean runs, AtomicLong ran)
      throws Exception {
    Map<String, Long> seen = new ConcurrentHashMap<>();
    Scans.visitEach(
        store,
        "main",
        from,
        to,
        RecordingVisitor.recording(
            seen,
            event -> event.timeMicros() + " " + event.sourcetype() + " " + event.raw(),
            runs ? EventRunTest::describe : null,
            ran),
        pool);
    return seen;
  }

  /** A run's event as a visitor reading event by event describes it, its text checked first. */
  private static String describe(EventRun run, int i) {
    String text =
        new String(run.bytes(), run.textOffset(i), run.textLength(i), StandardCharsets.UTF_8);
    if (run.ascii()) {
      assertThat(run.text(i, new AsciiText()).toString()).isEqualTo(text);
    }
    assertThat(text).isEqualTo(run.event(i).raw());
    String sole = run.soleSourcetype(); // the blocks here mix two: none, or every event's
    if (sole != null) {
      assertThat(run.sourcetype(i)).isEqualTo(sole);
    }
    return run.time(i) + " " + run.sourcetype(i) + " " + text;
  }

  @Test
  void runsGiveWhatEventsGive() throws Exception {
    Map<String, IndexOptions> options =
        Map.of("main", IndexOptions.builder().format(BucketFormat.BLOCKS).build());
    Random random = new Random(32);
    Set<Long> times = new HashSet<>();
    try (EventStore store = EventStore.open(data, options)) {
      for (int batch = 0; batch < 4; batch++) {
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 1_500; i++) {
          long time;
          do {
            time = START + random.nextInt(4_000_000) * 1_000L;
          } while (!times.add(time));
          String text = "line " + batch + " " + i + (batch == 2 && i % 50 == 0 ? " café" : "");
          events.add(new Event(time, text, "h", "/a", "st" + random.nextInt(2), Map.of()));
        }
        store.write("main", events);
      }
    }
    try (EventStore store = EventStore.open(data, options)) {
      for (long[] range :
          new long[][] {
            {Long.MIN_VALUE, Long.MAX_VALUE}, {START + 1_000_000_000L, START + 3_000_000_000L}
          }) {
        AtomicLong ran = new AtomicLong();
        AtomicLong none = new AtomicLong();
        Map<String, Long> byRuns = scan(store, range[0], range[1], true, ran);
        Map<String, Long> byEvents = scan(store, range[0], range[1], false, none);
        assertThat(byRuns).isEqualTo(byEvents);
        assertThat(none.get()).isZero();
        if (range[0]
            == Long.MIN_VALUE) { // each batch's blocks span the whole range: none inside the cut
          assertThat(ran.get()).as("events in runs").isEqualTo(6_000);
        }
      }
      assertThat(scan(store, Long.MIN_VALUE, Long.MAX_VALUE, false, new AtomicLong()).size())
          .isEqualTo(6_000);
    }
  }

  /**
   * A block only some events of which carry a sourcetype (the others an empty one) has no sole
   * sourcetype: a run of it says none, and each event's is its own.
   */
  @Test
  void aBlockOfWhichOnlySomeEventsCarryASourcetypeHasNoSoleOne() throws Exception {
    Map<String, IndexOptions> options =
        Map.of("main", IndexOptions.builder().format(BucketFormat.BLOCKS).build());
    try (EventStore store = EventStore.open(data, options)) {
      List<Event> events = new ArrayList<>();
      for (int i = 0; i < 1_000; i++) {
        String sourcetype = i % 3 == 0 ? "" : "st";
        events.add(new Event(START + i * 1_000L, "line " + i, "h", "/a", sourcetype, Map.of()));
      }
      store.write("main", events);
    }
    try (EventStore store = EventStore.open(data, options)) {
      AtomicLong runs = new AtomicLong();
      Map<String, Long> seen = new ConcurrentHashMap<>();
      Scans.visitEach(
          store,
          "main",
          Long.MIN_VALUE,
          Long.MAX_VALUE,
          RecordingVisitor.recording(
              seen,
              event -> event.raw() + " " + event.sourcetype(),
              (run, i) -> {
                assertThat(run.soleSourcetype()).as("some events carry none").isNull();
                return run.event(i).raw() + " " + run.sourcetype(i);
              },
              runs),
          pool);
      assertThat(runs.get()).as("events in runs").isEqualTo(1_000);
      assertThat(seen).hasSize(1_000).containsKeys("line 0 ", "line 1 st", "line 999 ");
    }
  }

  /** A visitor stopping inside a run has read only the events it visited, not the whole run. */
  @Test
  void aStopInsideARunCountsOnlyWhatWasVisited() throws Exception {
    Map<String, IndexOptions> options =
        Map.of("main", IndexOptions.builder().format(BucketFormat.BLOCKS).build());
    try (EventStore store = EventStore.open(data, options)) {
      List<Event> events = new ArrayList<>();
      for (int i = 0; i < 3_000; i++) {
        events.add(new Event(START + i * 1_000L, "line " + i, "h", "/a", "st", Map.of()));
      }
      store.write("main", events);
    }
    try (EventStore store = EventStore.open(data, options)) {
      AtomicLong stopped = new AtomicLong(); // runs stopped in, one per slice
      ScanStats stats =
          Scans.visitEach(
              store,
              "main",
              Long.MIN_VALUE,
              Long.MAX_VALUE,
              () ->
                  new EventVisitor() {
                    @Override
                    public boolean visit(StoredEvent event) {
                      throw new AssertionError("a block wholly in range comes as runs");
                    }

                    @Override
                    public boolean takesRuns() {
                      return true;
                    }

                    @Override
                    public boolean visit(EventRun run) {
                      assertThat(run.size()).isGreaterThan(7);
                      // a block of one sourcetype says so at once (its doc values)
                      assertThat(run.soleSourcetype()).isEqualTo("st");
                      stopped.incrementAndGet();
                      run.stoppedAfter(7);
                      return false;
                    }

                    @Override
                    public boolean keepsEvents() {
                      return false;
                    }
                  },
              pool);
      assertThat(stopped.get()).isPositive();
      assertThat(stats.eventsRead()).isEqualTo(7 * stopped.get());
    }
  }
}
