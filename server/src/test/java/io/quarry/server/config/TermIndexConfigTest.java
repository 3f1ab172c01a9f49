package io.quarry.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.codecs.store.TermIndex;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code storage.termIndex} and {@code storage.indexes.<name>.termIndex} ({@code filters} or {@code
 * postings}): the index's own wins, unset leaves the choice to the store (filters unless {@code
 * -Dquarry.storage.termFilters=false}), any other value is a start-up error naming the setting and
 * the values allowed, and a real server's new block buckets take the layout it names.
 */
class TermIndexConfigTest {
  @TempDir Path directory;

  @Test
  void theIndexsOwnTermIndexWinsOverTheStoragesAndUnsetIsLeftToTheStore() throws Exception {
    Path file = directory.resolve("terms.yml");
    Files.writeString(file, "indexes: [web, main]\n");
    QuarryConfig config = ConfigLoader.load(file, Map.of(), Map.of());
    assertThat(config.storage().options("main").termIndex()).isEmpty();
    Files.writeString(
        file,
        """
        indexes: [web, main]
        storage:
          termIndex: postings
          indexes:
            web: {termIndex: filters}
        """);
    config = ConfigLoader.load(file, Map.of(), Map.of());
    assertThat(config.storage().options("main").termIndex())
        .isEqualTo(Optional.of(TermIndex.POSTINGS));
    assertThat(config.storage().options("web").termIndex())
        .isEqualTo(Optional.of(TermIndex.FILTERS));
  }

  @Test
  void anUnknownTermIndexStopsTheStartNamingTheSettingAndTheValuesAllowed() throws Exception {
    Path file = directory.resolve("terms.yml");
    Files.writeString(file, "indexes: [web]\nstorage:\n  termIndex: bloom\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("storage.termIndex must be filters or postings, not 'bloom'");
    Files.writeString(file, "indexes: [web]\nstorage:\n  indexes: {web: {termIndex: Postings}}\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(
            "storage.indexes.web.termIndex must be filters or postings, not 'Postings'");
    Files.writeString(
        file, "indexes: [m]\nstorage:\n  indexes: {m: {datatype: metric, termIndex: filters}}\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("storage.indexes.m.termIndex is a setting of event indexes");
  }

  @Test
  void aServersNewBlockBucketsTakeTheTermIndexConfigured() throws Exception {
    Path data = directory.resolve("data");
    try (QuarryServer server =
        TestServers.start(data, "pw", settings -> settings.put("storage.termIndex", "postings"))) {
      TestServers.loadRaw(server, "GET /a 200\nGET /b 404\n");
    }
    Path bucket = data.resolve("indexes/main/buckets/1");
    assertThat(Files.readString(bucket.resolve("bucket.format")).strip()).isEqualTo("blocks 2");
  }
}
