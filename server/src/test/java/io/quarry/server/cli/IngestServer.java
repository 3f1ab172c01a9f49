package io.quarry.server.cli;

import io.quarry.client.QuarryClient;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.HecToken;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The server {@code quarry ingest} sends to in the CLI's tests: indexes {@code main} and {@code
 * logs}, HEC token {@code tok} writing any index, admin password {@code pw}; with a client that
 * searches it as admin (and sends with {@code tok}), and the command line sending to {@code logs}.
 */
final class IngestServer implements AutoCloseable {
  private final QuarryServer server;
  private final QuarryClient client;

  private IngestServer(QuarryServer server) {
    this.server = server;
    this.client =
        QuarryClient.builder(URI.create(server.url())).adminPassword("pw").hecToken("tok").build();
  }

  /** Starts one with its data in {@code data}. */
  static IngestServer start(Path data) throws Exception {
    return new IngestServer(
        QuarryServer.start(
            TestServers.settings(data, "pw")
                .put("indexes", List.of("main", "logs"))
                .put("hec.tokens", List.of(new HecToken("tok", "cli", "main", List.of("*"), null)))
                .build(),
            Clock.systemUTC()));
  }

  String url() {
    return server.url();
  }

  /** The admin's (and {@code tok}'s) client. */
  QuarryClient client() {
    return client;
  }

  /** How many events {@code query} finds. */
  long count(String query) {
    return Long.parseLong(client.search(query + " | stats count").rows().get(0).get("count"));
  }

  /**
   * {@code quarry ingest} to this server's index {@code logs} (sourcetype {@code
   * generic_single_line}) with these further options and paths.
   */
  String[] ingest(String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "ingest",
                "--url=" + server.url(),
                "--token=tok",
                "--index=logs",
                "--sourcetype=generic_single_line"));
    args.addAll(List.of(more));
    return args.toArray(String[]::new);
  }

  @Override
  public void close() throws Exception {
    try {
      client.close();
    } finally {
      server.close();
    }
  }
}
