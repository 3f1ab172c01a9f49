package io.quarry.plugin.testing;

import io.quarry.client.QuarryClient;
import io.quarry.client.SearchResults;
import io.quarry.plugin.api.QuarryPlugin;
import io.quarry.server.QuarryServer;
import io.quarry.server.config.QuarryConfig;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * A real Quarry server on 127.0.0.1 (a free port, data in a directory the test owns) with plugins
 * loaded from the test's class path as if they were in {@code plugins/}: load events, search with
 * the plugin's commands through the Java client.
 */
public final class PluginTestServer implements AutoCloseable {
  private static final String PASSWORD = "plugin-test-password";
  private static final String TOKEN = "plugin-test-token";

  private final QuarryServer server;
  private final QuarryClient client;

  private PluginTestServer(QuarryServer server) {
    this.server = server;
    this.client =
        QuarryClient.builder(URI.create(server.url()))
            .adminPassword(PASSWORD)
            .hecToken(TOKEN)
            .build();
  }

  /** Starts a server with its data in {@code dataDirectory} and {@code plugins} loaded. */
  public static PluginTestServer start(Path dataDirectory, QuarryPlugin... plugins)
      throws Exception {
    QuarryConfig config =
        QuarryConfig.embedded(dataDirectory, PASSWORD, TOKEN)
            .put("plugins.dir", dataDirectory.resolve("no-plugins-dir").toString())
            .build();
    return new PluginTestServer(QuarryServer.start(config, Clock.systemUTC(), List.of(plugins)));
  }

  /** Indexes lines as events of {@code sourcetype} (one per line for line-based sourcetypes). */
  public void load(String sourcetype, List<String> lines) {
    client.sendRaw(
        (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8),
        sourcetype,
        "main",
        null,
        null);
  }

  /** Runs a search over all time; fails with the server's error for a bad query or plugin. */
  public SearchResults search(String query) {
    return client.search(query);
  }

  public QuarryClient client() {
    return client;
  }

  public String url() {
    return server.url();
  }

  @Override
  public void close() throws Exception {
    server.close();
  }
}
