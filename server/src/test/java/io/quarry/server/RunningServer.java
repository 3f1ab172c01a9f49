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
 * One server over a fresh data directory, for the whole of a test class: {@code @RegisterExtension
 * static final RunningServer SERVER = new RunningServer(PASSWORD);} (the default settings, {@link
 * TestServers#start(Path, String)}), or with a {@link Starter} of its own (settings, events loaded
 * before the first test). Started before the class's first test; closed, and its directory deleted,
 * after its last.
 */
public final class RunningServer implements BeforeAllCallback, AfterAllCallback {
  /** Starts the server over its data directory (and loads what the tests search). */
  @FunctionalInterface
  public interface Starter {
    QuarryServer start(Path data) throws Exception;
  }

  private final String password;
  private final Starter starter;
  private Path root;
  private QuarryServer server;
  private TestHttp http;

  public RunningServer(String password) {
    this(password, data -> TestServers.start(data, password));
  }

  /** A server that {@code starter} starts, whose admin password is {@code password}. */
  public RunningServer(String password, Starter starter) {
    this.password = java.util.Objects.requireNonNull(password, "password is null");
    this.starter = java.util.Objects.requireNonNull(starter, "starter is null");
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    root = Files.createTempDirectory("quarry-test-server");
    server = starter.start(root.resolve("data"));
    http = new TestHttp(server.url());
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    try {
      if (server != null) {
        server.close();
      }
    } finally {
      server = null;
      http = null;
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

  /** A client of the running server; only between the class's first and last test. */
  public TestHttp http() {
    server();
    return http;
  }

  public String password() {
    return password;
  }

  /** The export endpoint's answer to {@code query} as admin, which must be 200. */
  public String exportOk(String query) throws Exception {
    return TestServers.exportOk(server(), password, query);
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
