package io.quarry.server;

import io.quarry.server.config.ConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@code quarry.yml} for tests that read their server's settings as a user writes them: a free
 * port of 127.0.0.1, admin password {@value #ADMIN_PASSWORD}, users whose password is their name
 * and {@code -pw} ({@code TestHttp.basic("bob", "bob-pw")}), roles, HEC token {@code tok} and what
 * else the test adds. The file is written beside the data directory and loaded by {@link
 * ConfigLoader}, as the server's command line loads it.
 */
public final class TestConfig {
  /** The admin's password. */
  public static final String ADMIN_PASSWORD = "admin-pw";

  private final List<String> lines;
  private final List<String> users = new ArrayList<>();
  private final Map<String, String> roles = new LinkedHashMap<>();
  private List<String> hecIndexes = List.of("main");

  private TestConfig(List<String> lines) {
    this.lines = lines;
  }

  /** A configuration with these top-level lines besides the server, auth and HEC sections. */
  public static TestConfig yaml(String... lines) {
    return new TestConfig(List.of(lines));
  }

  /** Adds user {@code name} (password {@code name-pw}) with these roles (none: the default). */
  public TestConfig user(String name, String... roles) {
    users.add(
        "{name: %s, password: %s-pw%s}"
            .formatted(
                name,
                name,
                roles.length == 0 ? "" : ", roles: [" + String.join(", ", roles) + "]"));
    return this;
  }

  /** Adds role {@code name} with these settings (a YAML flow map: {@code {srchJobsQuota: 1}}). */
  public TestConfig role(String name, String settings) {
    roles.put(name, settings);
    return this;
  }

  /**
   * The indexes HEC token {@code tok} may write, the first its default ({@code main} unless set).
   */
  public TestConfig hecIndexes(String... indexes) {
    hecIndexes = List.of(indexes);
    return this;
  }

  /** The file's text, the server's data in {@code dataDirectory}. */
  public String text(Path dataDirectory) {
    StringBuilder yaml = new StringBuilder();
    yaml.append("server: {bind: 127.0.0.1, port: 0}\n");
    yaml.append("dataDir: ").append(dataDirectory).append('\n');
    lines.forEach(line -> yaml.append(line).append('\n'));
    yaml.append("auth:\n  adminPassword: ").append(ADMIN_PASSWORD).append('\n');
    if (!users.isEmpty()) {
      yaml.append("  users:\n");
      users.forEach(user -> yaml.append("    - ").append(user).append('\n'));
    }
    if (!roles.isEmpty()) {
      yaml.append("  roles:\n");
      roles.forEach((name, settings) -> yaml.append("    ").append(name + ": " + settings + "\n"));
    }
    yaml.append("hec:\n  tokens: [{token: tok, name: test, defaultIndex: ")
        .append(hecIndexes.getFirst())
        .append(", indexes: [")
        .append(String.join(", ", hecIndexes))
        .append("]}]\n");
    return yaml.toString();
  }

  /**
   * Writes {@code directory/quarry.yml} (the directory made if missing, as {@link RunningServer}'s
   * is) and starts a server from it, its data in {@code data}.
   */
  public QuarryServer start(Path directory) throws Exception {
    Path config = Files.createDirectories(directory).resolve("quarry.yml");
    Files.writeString(config, text(directory.resolve("data")));
    return QuarryServer.start(ConfigLoader.load(config, Map.of(), Map.of()), Clock.systemUTC());
  }

  /**
   * Closes {@code running} (if there is one) and starts a server from this configuration over the
   * same {@code directory} again: what survives a restart.
   */
  public QuarryServer restart(QuarryServer running, Path directory) throws Exception {
    if (running != null) {
      running.close();
    }
    return start(directory);
  }
}
