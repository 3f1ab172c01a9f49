package io.quarry.server.cli;

import io.quarry.server.QuarryServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds credentials for the client commands: the flag, else the environment variable, else the file
 * a local server generated in its data directory.
 */
final class LocalCredentials {
  private LocalCredentials() {}

  static String adminPassword(String flag, String dataDir) throws IOException {
    return resolve(
        flag, "QUARRY_ADMIN_PASSWORD", dataDir, QuarryServer.ADMIN_PASSWORD_FILE, "--password");
  }

  static String hecToken(String flag, String dataDir) throws IOException {
    return resolve(flag, "QUARRY_HEC_TOKEN", dataDir, QuarryServer.HEC_TOKEN_FILE, "--token");
  }

  static String url(String flag) {
    if (flag != null) {
      return flag;
    }
    String fromEnvironment = System.getenv("QUARRY_URL");
    return fromEnvironment != null && !fromEnvironment.isBlank()
        ? fromEnvironment
        : "http://127.0.0.1:8088";
  }

  private static String resolve(
      String flag, String variable, String dataDir, String file, String option) throws IOException {
    if (flag != null) {
      return flag;
    }
    String fromEnvironment = System.getenv(variable);
    if (fromEnvironment != null && !fromEnvironment.isBlank()) {
      return fromEnvironment;
    }
    String directory = dataDir;
    if (directory == null) {
      String fromDataEnvironment = System.getenv("QUARRY_DATA_DIR");
      directory =
          fromDataEnvironment != null && !fromDataEnvironment.isBlank()
              ? fromDataEnvironment
              : "./data";
    }
    Path path = Path.of(directory, file);
    if (Files.isReadable(path)) {
      return Files.readString(path, StandardCharsets.UTF_8).strip();
    }
    throw new IllegalArgumentException(
        "no credentials: pass "
            + option
            + ", set "
            + variable
            + ", or run where "
            + path
            + " exists");
  }
}
