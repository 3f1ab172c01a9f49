package io.quarry.server.plugins;

import io.quarry.plugin.api.SpiVersion;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * A plugin's {@code plugin.properties}: {@code name}, {@code version}, {@code description} and
 * {@code spi.version} (the SPI it was built against).
 */
public record PluginDescriptor(String name, String version, String description, String spiVersion) {
  public static final String FILE = "plugin.properties";

  /**
   * Reads a plugin directory's descriptor (see {@link #requireSupportedSpi}).
   *
   * @throws IllegalArgumentException naming what is missing or wrong
   */
  public static PluginDescriptor read(Path directory) throws IOException {
    Path file = directory.resolve(FILE);
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("no " + FILE + " in " + directory);
    }
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(reader);
    }
    String name = required(properties, "name", file);
    if (!name.matches("[a-z0-9][a-z0-9_-]*")) {
      throw new IllegalArgumentException(
          file + ": name '" + name + "' must be lower-case letters, digits, '-' and '_'");
    }
    String spi = required(properties, "spi.version", file);
    return new PluginDescriptor(
        name,
        required(properties, "version", file),
        properties.getProperty("description", "").trim(),
        spi.trim());
  }

  /**
   * @throws IllegalArgumentException when this server's SPI cannot run the plugin
   */
  public void requireSupportedSpi() {
    if (!SpiVersion.supports(spiVersion)) {
      throw new IllegalArgumentException(
          "plugin '"
              + name
              + "' was built for SPI "
              + spiVersion
              + ", this server has SPI "
              + SpiVersion.current()
              + " (a plugin runs on the same major version, minor at most the server's)");
    }
  }

  private static String required(Properties properties, String key, Path file) {
    String value = properties.getProperty(key);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(file + " has no '" + key + "'");
    }
    return value.trim();
  }
}
