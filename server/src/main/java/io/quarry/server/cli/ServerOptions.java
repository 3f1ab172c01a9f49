package io.quarry.server.cli;

import io.quarry.server.config.ConfigLoader;
import io.quarry.server.config.QuarryConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** The flags shared by {@code server} and {@code demo}; each overrides the file and environment. */
final class ServerOptions {
  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description =
          "Where indexes and generated secrets live (default ./data; env QUARRY_DATA_DIR).")
  String dataDir;

  @Option(
      names = "--bind",
      paramLabel = "ADDR",
      description = "Address to listen on (default 127.0.0.1; env QUARRY_BIND).")
  String bind;

  @Option(
      names = "--port",
      paramLabel = "N",
      description =
          "Port for HTTP, HEC and search (default 8088; 0 picks a free one; env QUARRY_PORT).")
  Integer port;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "Configuration file (default $QUARRY_CONFIG, else conf/quarry.yml of the installation).")
  Path config;

  QuarryConfig load() throws IOException {
    Map<String, String> flags = new LinkedHashMap<>();
    if (dataDir != null) {
      flags.put("dataDir", dataDir);
    }
    if (bind != null) {
      flags.put("server.bind", bind);
    }
    if (port != null) {
      flags.put("server.port", port.toString());
    }
    return ConfigLoader.load(configFile(), System.getenv(), flags);
  }

  private Path configFile() {
    if (config != null) {
      return config;
    }
    String fromEnvironment = System.getenv("QUARRY_CONFIG");
    if (fromEnvironment != null && !fromEnvironment.isBlank()) {
      return Path.of(fromEnvironment);
    }
    String home = System.getProperty("quarry.home");
    if (home != null) {
      Path installed = Path.of(home, "conf", "quarry.yml");
      if (Files.isRegularFile(installed)) {
        return installed;
      }
    }
    return null;
  }
}
