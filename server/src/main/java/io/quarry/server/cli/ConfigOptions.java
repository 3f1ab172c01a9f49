package io.quarry.server.cli;

import io.quarry.server.config.ConfigLoader;
import io.quarry.server.config.QuarryConfig;
import io.quarry.server.config.RetiredProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The configuration file and data directory flags, shared by every command that opens the data
 * directory itself ({@code server}, {@code demo}, {@code reindex}); each overrides the file and the
 * environment.
 */
final class ConfigOptions {
  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description =
          "Where indexes and generated secrets live (default ./data; env QUARRY_DATA_DIR).")
  String dataDir;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "Configuration file (default $QUARRY_CONFIG, else conf/quarry.yml of the installation).")
  Path config;

  /** The configuration, with {@code flags} (dotted keys) and {@code --data-dir} laid over it. */
  QuarryConfig load(Map<String, String> flags) throws IOException {
    Map<String, String> all = new LinkedHashMap<>();
    if (dataDir != null) {
      all.put("dataDir", dataDir);
    }
    all.putAll(flags);
    RetiredProperties.warnIfSet();
    return ConfigLoader.load(configFile(), System.getenv(), all);
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
