package io.quarry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.IndexOptions;
import io.quarry.server.config.ConfigLoader;
import io.quarry.server.config.QuarryConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quarry reindex} opens its event store with the configuration's {@code
 * storage.committerThreads}, as the server does, and the default where none is set: the store it
 * converts on (a real data directory) runs at most that many committer threads.
 */
class ReindexCommitterThreadsTest {
  @TempDir Path directory;

  @Test
  void theStoreAConversionRunsOnHasTheConfiguredCommitterThreads() throws Exception {
    assertThat(committerThreads("indexes: [web]\nstorage:\n  committerThreads: 3\n")).isEqualTo(3);
    assertThat(committerThreads("indexes: [web]\n"))
        .isEqualTo(EventStore.DEFAULT_COMMITTER_THREADS)
        .isNotEqualTo(3);
  }

  private int committerThreads(String yaml) throws Exception {
    Path file = directory.resolve("quarry.yml");
    Files.writeString(file, yaml);
    QuarryConfig config = ConfigLoader.load(file, Map.of(), Map.of());
    Map<String, IndexOptions> options = Map.of("web", config.storage().options("web"));
    try (EventStore store = ReindexCommand.open(config, directory.resolve("data"), options)) {
      return store.committerThreads();
    }
  }
}
