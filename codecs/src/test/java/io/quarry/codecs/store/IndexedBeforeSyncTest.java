package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link IndexStore#add(List, Runnable)}'s {@code indexed}, where an ingest pipeline is handed on:
 * it runs once per stored batch, after the batch's record is in the write-ahead log's file and
 * before the add returns (its fsync is waited for after it); never for a batch refused before
 * anything is stored. On a real index in a real directory.
 */
class IndexedBeforeSyncTest {
  @RegisterExtension final StoreFixture stores = new StoreFixture();

  private static IndexOptions options() {
    return IndexOptions.builder()
        .maxBucketEvents(5_000)
        .maxHotAge(Duration.ofHours(1))
        .format(BucketFormat.BLOCKS)
        .build();
  }

  private long logBytes() {
    try (Stream<Path> files = Files.list(stores.data().resolve("main").resolve("wal"))) {
      long bytes = 0;
      for (Path file : files.toList()) {
        bytes += Files.size(file);
      }
      return bytes;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void runsOnceAStoredBatchIsInTheLogAndNeverForARefusedOne() throws Exception {
    try (IndexStore store = stores.open("main", options(), 1)) {
      long before = logBytes();
      List<Long> seen = new ArrayList<>();
      long raw = store.add(NumberedEvents.events(0, 100), () -> seen.add(logBytes()));
      assertThat(seen).hasSize(1);
      assertThat(seen.getFirst()).isGreaterThan(before + raw); // the batch's record, texts and all

      List<Event> refused = new ArrayList<>(NumberedEvents.events(100, 10));
      refused.add(new Event(200_000L, "too long a host", "h".repeat(40_000), "s", "st", Map.of()));
      List<Long> never = new ArrayList<>();
      assertThatThrownBy(() -> store.add(refused, () -> never.add(logBytes())))
          .isInstanceOf(InvalidEventException.class);
      assertThat(never).isEmpty();
      assertThat(store.add(List.of(), () -> never.add(0L))).isZero();
      assertThat(never).isEmpty();
    }
    try (IndexStore store = stores.open("main", options(), 1)) {
      assertThat(store.count()).isEqualTo(100); // replayed from the log: the stored batch only
    }
  }
}
