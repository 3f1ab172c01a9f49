package io.quarry.server.cli;

import io.quarry.client.QuarryClient;
import java.io.IOException;
import java.net.URI;
import picocli.CommandLine.Option;

/**
 * The flags of the commands that talk to a running server: where it is and where its secrets are.
 */
final class ClientOptions {
  @Option(
      names = "--url",
      paramLabel = "URL",
      description = "Server URL (default $QUARRY_URL, else http://127.0.0.1:8088).")
  String url;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description =
          "Data directory of a local server, for its generated password or token (default ./data).")
  String dataDir;

  /** A client for search and admin endpoints. */
  QuarryClient admin(String password) throws IOException {
    return QuarryClient.builder(URI.create(LocalCredentials.url(url)))
        .adminPassword(LocalCredentials.adminPassword(password, dataDir))
        .build();
  }

  /** A client for HEC ingestion. */
  QuarryClient hec(String token) throws IOException {
    return QuarryClient.builder(URI.create(LocalCredentials.url(url)))
        .hecToken(LocalCredentials.hecToken(token, dataDir))
        .build();
  }
}
