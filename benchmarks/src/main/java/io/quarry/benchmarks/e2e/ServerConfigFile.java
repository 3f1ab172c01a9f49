package io.quarry.benchmarks.e2e;

import java.nio.file.Path;

/**
 * The {@code quarry.yml} the harness writes for the server it starts ({@link QuarryProcess}):
 * defaults everywhere but the port, the data directory, a known password and the settings a run is
 * given (the indexes' format, block size, journal compression, the compaction properties,
 * index-time sessions).
 */
final class ServerConfigFile {
  private ServerConfigFile() {}

  /** Defaults everywhere but the port, the data directory and a known password. */
  static final String CONFIG =
      """
      server:
        bind: 127.0.0.1
        port: %d
      dataDir: '%s'
      indexes: [main, hec]
      auth:
        adminPassword: %s
      search:
        maxTimeSeconds: 3600
      storage:%s
        indexes:
          main: {format: %s}
          hec: {format: %s}
      """;

  /**
   * What {@code --indexed-sessions} adds: {@code access_combined}'s built-in index extraction (the
   * same regex, so its four fields still come from the hand-written parser) and JSESSIONID.
   */
  static final String INDEXED_SESSIONS =
      """
      sourcetypes:
        access_combined:
          indexExtractions:
            - type: regex
              regex: '^(?<clientip>\\S+) \\S+ \\S+ \\[[^\\]]+\\] "(?<method>[A-Z]+) (?<uri_path>[^\\s?"]*)[^"]*" (?<status>\\d{3}) '
            - type: regex
              regex: '%s'
      """;

  /**
   * The server's configuration: port {@code port}, data in {@code dataDir}, the indexes' {@code
   * format}, {@code blockEvents} and {@code journalCompression} (null: not set, the server's
   * default), the compaction settings of this JVM's properties ({@link #compactionSettings}) and
   * {@link #INDEXED_SESSIONS} when {@code indexedSessions}.
   */
  static String text(
      int port,
      Path dataDir,
      String format,
      Integer blockEvents,
      String journalCompression,
      boolean indexedSessions) {
    return CONFIG.formatted(
            port,
            dataDir.toAbsolutePath().toString().replace("'", "''"),
            QuarryProcess.PASSWORD,
            (blockEvents == null ? "" : "\n  blockEvents: " + blockEvents)
                + (journalCompression == null
                    ? ""
                    : "\n  journalCompression: " + journalCompression)
                + compactionSettings(),
            format,
            format)
        + (indexedSessions ? INDEXED_SESSIONS.formatted(QuerySuite.SESSIONS_EXTRACTION) : "");
  }

  /** Harness properties {@code quarry.storage.compaction.<key>} set {@code storage.compaction}. */
  static final String COMPACTION_PREFIX = "quarry.storage.compaction.";

  /**
   * The server's {@code storage.compaction} settings (its lines of the storage section, or none):
   * those the harness is given as {@code -Dquarry.storage.compaction.<key>=<value>} ({@code
   * mode=inline}, {@code idleMillis}, {@code idleMinBytes}, {@code pendingBytes}; the config
   * reference, conf/quarry.yml, says what each means).
   */
  static String compactionSettings() {
    StringBuilder lines = new StringBuilder();
    for (String name : System.getProperties().stringPropertyNames()) {
      if (name.startsWith(COMPACTION_PREFIX)) {
        lines
            .append("\n    ")
            .append(name.substring(COMPACTION_PREFIX.length()))
            .append(": '")
            .append(System.getProperty(name).replace("'", "''"))
            .append("'");
      }
    }
    return lines.isEmpty() ? "" : "\n  compaction:" + lines;
  }
}
