package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A parallel scan handing runs to a visitor that reads only their times and fields held outside the
 * payload gets each block's times from its journal block's first bytes ({@link PrefixTimes}): the
 * same times as a visitor that also reads the texts (which decodes every block whole), from a small
 * part of the bytes.
 */
class PrefixTimesTest {
  @TempDir Path data;
  private final ExecutorService pool = Executors.newFixedThreadPool(2);

  @AfterEach
  void stopPool() {
    pool.shutdownNow();
  }

  private static final long START = 1_700_000_000_000_000L;

  private record Answer(Map<String, Long> described, ScanStats.Costs costs) {}

  private Answer scan(EventStore store, BiFunction<EventRun, Integer, String> describe)
      throws Exception {
    Map<String, Long> described = new ConcurrentHashMap<>();
    ScanStats stats =
        Scans.visitEach(
            store,
            "blocks",
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            RecordingVisitor.recording(
                described,
                event -> {
                  throw new AssertionError("a block wholly in range comes as runs");
                },
                describe,
                new AtomicLong()),
            pool);
    return new Answer(described, stats.costs());
  }

  @Test
  void runsReadTheirTimesWithoutTheTexts() throws Exception {
    Map<String, IndexOptions> options =
        Map.of(
            "blocks", IndexOptions.builder().format(BucketFormat.BLOCKS).blockEvents(4096).build());
    Random random = new Random(7);
    Map<String, Long> truth = new java.util.HashMap<>();
    try (EventStore store = EventStore.open(data, options)) {
      Set<Long> times = new HashSet<>();
      for (int batch = 0; batch < 3; batch++) { // a block each, a journal block each (~400 KB)
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 4096; i++) {
          long time;
          do {
            time = START + random.nextInt(50_000_000) * 1_000L;
          } while (!times.add(time));
          String status = Integer.toString(200 + 100 * random.nextInt(4));
          String raw =
              "10.0."
                  + random.nextInt(256)
                  + ".1 GET /item/"
                  + random.nextInt(100_000)
                  + " HTTP/1.1 "
                  + status
                  + " "
                  + random.nextInt(5000)
                  + " \"Mozilla/5.0 (X11; Linux x86_64) Chrome/"
                  + random.nextInt(200)
                  + "\"";
          events.add(new Event(time, raw, "web", "/a", "st", Map.of("status", List.of(status))));
          truth.merge(time + " " + status, 1L, Long::sum);
        }
        store.write("blocks", events);
      }
    }
    try (EventStore store = EventStore.open(data, options)) {
      Answer prefix =
          scan(store, (run, i) -> run.time(i) + " " + run.event(i).indexedField("status").get(0));
      Answer whole =
          scan(
              store,
              (run, i) ->
                  (run.textLength(i) > 0 ? "" : "!") // the texts first: the block decoded whole
                      + run.time(i)
                      + " "
                      + run.event(i).indexedField("status").get(0));
      assertThat(prefix.described()).isEqualTo(truth);
      assertThat(whole.described()).isEqualTo(truth);
      assertThat(prefix.costs().prefixBlocks()).isEqualTo(whole.costs().journalBlocks());
      assertThat(prefix.costs().journalBlocks()).as("no block decoded whole").isZero();
      assertThat(whole.costs().prefixBlocks()).isZero();
      assertThat(prefix.costs().journalBytes())
          .as("the times' bytes, not the texts'")
          .isLessThan(whole.costs().journalBytes() / 10);
    }
  }
}
