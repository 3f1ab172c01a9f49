package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Events holding their texts as ranges of one body ({@link Event#ofAscii}) are the store's only
 * until {@code write} returns: a body written over afterwards (as a reused buffer would be) changes
 * nothing stored — in the hot bucket, after a reopen, or replayed from the log alone (a copy of the
 * data taken before any commit, as after a crash) — and the texts read back are those of the same
 * events written as strings. Over both layouts: the block layout (the server default) is where the
 * block writer and TermSet read the ranges.
 */
class BodyRangeOwnershipTest {
  @TempDir Path data;
  @TempDir Path image;

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void aBodyWrittenOverAfterTheWriteChangesNothingStored(BucketFormat format) throws Exception {
    Random random = new Random(33);
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      String raw =
          random.nextInt(20) == 0
              ? "caf\u00e9 " + i // not ASCII: held as a string
              : "10.0.0." + (i % 9) + " GET /p/" + random.nextInt(1_000) + " n=" + i;
      events.add(new Event(1_000_000L * i, raw, "h", "s", "st", Map.of()));
    }
    List<Event> held = BodyRanges.inOneBody(events);
    byte[] body = held.get(0).asciiArray();
    assertThat(body).isNotNull();
    List<String> expected = events.stream().map(Event::raw).toList();
    IndexOptions uncommitted =
        IndexOptions.builder().commitInterval(Duration.ofHours(1)).format(format).build();
    try (EventStore store = EventStore.open(data, Map.of("main", uncommitted))) {
      store.write("main", held.subList(0, 1_000));
      store.write("main", held.subList(1_000, held.size()));
      Arrays.fill(body, (byte) 'z'); // the body's owner is done with it
      RecoveryTest.copy(data, image); // in the log only: nothing committed yet
      assertThat(RecoveryTest.raws(store)).containsExactlyInAnyOrderElementsOf(expected);
    }
    try (EventStore replayed =
        EventStore.open(image, Map.of("main", IndexOptions.builder().format(format).build()))) {
      assertThat(RecoveryTest.raws(replayed)).containsExactlyInAnyOrderElementsOf(expected);
    }
    try (EventStore reopened =
        EventStore.open(data, Map.of("main", IndexOptions.builder().format(format).build()))) {
      assertThat(RecoveryTest.raws(reopened)).containsExactlyInAnyOrderElementsOf(expected);
    }
  }
}
