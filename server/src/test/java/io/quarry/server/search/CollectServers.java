package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestConfig;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;

/**
 * The server of the {@code collect} tests: indexes {@code main}, {@code summary} (what they collect
 * into) and {@code web}, HEC token {@code tok} writing {@code main} and {@code web}, and three
 * events in {@code main}: {@code status=200 path=/a}, {@code status=200 path=/b}, {@code status=500
 * path=/a}.
 */
final class CollectServers {
  private CollectServers() {}

  /** The configuration: a test adds its users and roles to it. */
  static TestConfig config() {
    return TestConfig.yaml("indexes: [main, summary, web]").hecIndexes("main", "web");
  }

  /** Starts a server of {@code config} in {@code directory} and loads the three events. */
  static QuarryServer start(Path directory, TestConfig config) throws Exception {
    QuarryServer server = config.start(directory);
    try {
      HttpResponse<String> loaded =
          TestServers.postRaw(
              server, "tok", "app", "status=200 path=/a\nstatus=200 path=/b\nstatus=500 path=/a\n");
      assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
      return server;
    } catch (Exception | AssertionError e) {
      server.close();
      throw e;
    }
  }
}
