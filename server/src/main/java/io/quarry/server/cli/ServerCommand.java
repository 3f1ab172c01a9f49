package io.quarry.server.cli;

import io.quarry.server.QuarryServer;
import io.quarry.server.config.QuarryConfig;
import io.quarry.server.tls.ServerTls;
import java.time.Clock;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code quarry server}: serve until stopped. */
@Command(
    name = "server",
    mixinStandardHelpOptions = true,
    description = "Run the server on the embedded store until stopped (Ctrl-C or SIGTERM).")
final class ServerCommand implements Callable<Integer> {
  @Mixin ServerOptions options;

  @Override
  public Integer call() throws Exception {
    QuarryConfig config = options.load();
    QuarryServer server = QuarryServer.start(config, Clock.systemUTC());
    printStartup(server);
    awaitShutdown(server);
    return 0;
  }

  static void printStartup(QuarryServer server) {
    System.out.println("Quarry is listening on " + server.url());
    System.out.println("  data directory: " + server.dataDirectory());
    ServerTls tls = server.tls();
    if (tls != null && tls.generated() != null) {
      System.out.println(
          "  TLS certificate ("
              + (tls.generated().generated() ? "generated now" : "generated")
              + ", self-signed; clients trust the CA "
              + tls.generated().ca()
              + ", e.g. curl --cacert): CA SHA-256 "
              + tls.fingerprint());
    } else if (tls != null) {
      System.out.println(
          "  TLS certificate " + tls.certificate() + ": SHA-256 " + tls.fingerprint());
    }
    if (server.adminPassword().generated()) {
      System.out.println(
          "  admin password (generated, shown once; kept in "
              + server.dataDirectory().resolve(QuarryServer.ADMIN_PASSWORD_FILE)
              + "): "
              + server.adminPassword().value());
    }
    if (server.generatedHecToken() != null && server.generatedHecToken().generated()) {
      System.out.println(
          "  HEC token (generated; kept in "
              + server.dataDirectory().resolve(QuarryServer.HEC_TOKEN_FILE)
              + "): "
              + server.generatedHecToken().value());
    }
  }

  /** Blocks until the JVM is asked to stop, then closes the server cleanly. */
  static void awaitShutdown(QuarryServer server) throws InterruptedException {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    server.close();
                  } catch (Exception e) {
                    System.err.println("quarry: error while stopping: " + e);
                  } finally {
                    stopped.countDown();
                  }
                },
                "quarry-shutdown"));
    stopped.await();
  }
}
