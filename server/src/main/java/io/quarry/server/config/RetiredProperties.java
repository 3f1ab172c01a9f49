package io.quarry.server.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The JVM properties that once set what {@code quarry.yml} sets now, and the key replacing each:
 * the server no longer reads them, and says so at startup instead of ignoring them silently (a
 * {@code -Dquarry.storage.compaction=inline} left in a start script no longer turns compaction
 * inline).
 */
public final class RetiredProperties {
  private static final Logger LOG = Logger.getLogger(RetiredProperties.class.getName());

  /** Retired JVM property → the {@code quarry.yml} key that replaces it (session 34). */
  static final Map<String, String> REPLACED_BY =
      Map.of(
          "quarry.storage.compaction", "storage.compaction.mode",
          "quarry.storage.compactionIdleMillis", "storage.compaction.idleMillis",
          "quarry.storage.compactionIdleMinBytes", "storage.compaction.idleMinBytes",
          "quarry.storage.compactionPendingBytes", "storage.compaction.pendingBytes");

  private RetiredProperties() {}

  /** A warning for each retired property set in {@code properties}, in the properties' order. */
  static List<String> warnings(Properties properties) {
    List<String> warnings = new ArrayList<>();
    for (String name : new java.util.TreeSet<>(properties.stringPropertyNames())) {
      String key = REPLACED_BY.get(name);
      if (key != null) {
        warnings.add(
            "-D"
                + name
                + "="
                + properties.getProperty(name)
                + " is ignored: set "
                + key
                + " in quarry.yml (or storage.indexes.<name>.compaction."
                + key.substring(key.lastIndexOf('.') + 1)
                + " for one index)");
      }
    }
    return warnings;
  }

  /** Logs a warning for each retired property this JVM was started with. */
  public static void warnIfSet() {
    warnings(System.getProperties()).forEach(LOG::warning);
  }
}
