package io.quarry.server.cli;

import io.quarry.client.QuarryClient;
import java.io.IOException;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The flags of the commands that search or read statistics: the server and the admin password. */
final class AdminOptions {
  @Mixin ClientOptions server;

  @Option(
      names = "--password",
      paramLabel = "PASSWORD",
      description =
          "Admin password (default $QUARRY_ADMIN_PASSWORD, else <data-dir>/.admin-password).")
  String password;

  QuarryClient client() throws IOException {
    return server.admin(password);
  }
}
