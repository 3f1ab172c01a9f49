package io.quarry.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.codecs.store.Event;
import io.quarry.codecs.store.EventStore;
import io.quarry.server.hec.HecException;
import io.quarry.server.metrics.ServerMetrics;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write of one request's events to several indexes that fails at a later index after the earlier
 * ones were stored, with a real store whose second index fails every write (closed under the
 * writer, standing for a full disk or an index too busy): {@link PartlyStoredException} names the
 * stored indexes and events, and HEC's answer carries them; a failure at the first index is the
 * failure as it is (nothing stored).
 */
class PartlyStoredTest {
  @TempDir Path directory;
  private EventStore store;
  private IngestService ingest;

  @BeforeEach
  void open() throws Exception {
    store = EventStore.open(directory, List.of("main", "web"));
    ingest =
        new IngestService(
            store, new ServerMetrics(), Sourcetypes.builtIn(), new IngestGate(1, 1 << 20));
    store.index("web").close(); // every later write to web fails
  }

  @AfterEach
  void close() throws Exception {
    store.close();
  }

  @Test
  void aLaterIndexFailingAfterAnEarlierOneWasStoredNamesWhatWasStored() {
    List<IndexedEvent> events =
        List.of(event("main", "a"), event("web", "b"), event("main", "c"), event("web", "d"));
    assertThatThrownBy(() -> ingest.write(events))
        .isInstanceOfSatisfying(
            PartlyStoredException.class,
            e -> {
              assertThat(e.storedIndexes()).containsExactly("main");
              assertThat(e.storedEvents()).isEqualTo(2);
              assertThat(e.failedIndex()).isEqualTo("web");
              assertThat(e.getCause()).isNotNull();
            });
    assertThat(store.index("main").count()).isEqualTo(2);

    HecException answer = HecException.partlyStored("storing failed", List.of("main"), 2);
    assertThat(answer.status().code()).isEqualTo(503);
    assertThat(answer.body())
        .containsEntry("code", 9)
        .containsEntry("stored-indexes", List.of("main"))
        .containsEntry("stored-events", 2);
  }

  @Test
  void theFirstIndexFailingIsTheFailureAsItIs() {
    List<IndexedEvent> events = List.of(event("web", "b"), event("main", "a"));
    assertThatThrownBy(() -> ingest.write(events))
        .isInstanceOf(IOException.class)
        .isNotInstanceOf(PartlyStoredException.class);
    assertThat(store.index("main").count()).isZero();
  }

  private static IndexedEvent event(String index, String raw) {
    return new IndexedEvent(
        index,
        new Event(1_767_744_000_000_000L, raw, "h", "s", "st", Map.<String, List<String>>of()));
  }
}
