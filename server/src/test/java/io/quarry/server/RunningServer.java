package io.quarry.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One server with the default settings ({@link TestServers#start(Path, String)}) over a fresh data
 * directory, for the whole of a test class: {@code @RegisterExtension static final RunningServer
 * SERVER = new RunningServer(PASSWORD);}. Started before the class's first test; closed, and its
 * directory deleted, after its last.
 */
public final class RunningServer implements BeforeAllCallback, AfterAllCallback {
  private final String password;
  private Path root;
  private QuarryServer server;

  public RunningServer(String password) {
    this.password = password;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    root = Files.createTempDirectory("quarry-test-server");
    server = TestServers.start(root.resolve("data"), password);
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    try {
      if (server != null) {
        server.close();
      }
    } finally {
      server = null;
      delete(root);
    }
  }

  /** The running server; only between the class's first and last test. */
  public QuarryServer server() {
    if (server == null) {
      throw new IllegalStateException("the server runs only while the test class does");
    }
    return server;
  }

  public String password() {
    return password;
  }

  private static void delete(Path directory) throws IOException {
    if (directory == null || !Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
