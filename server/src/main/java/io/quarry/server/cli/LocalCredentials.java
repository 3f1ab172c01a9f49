package io.quarry.server.cli;

import io.quarry.server.QuarryServer;
import io.quarry.server.tls.GeneratedCertificate;
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

  /**
   * @param localServer whether the URL names this machine: a local server's generated secret is
   *     never sent to another host
   */
  static String adminPassword(String flag, String dataDir, boolean localServer) throws IOException {
    return resolve(
        flag,
        "QUARRY_ADMIN_PASSWORD",
        dataDir,
        localServer,
        QuarryServer.ADMIN_PASSWORD_FILE,
        "--password");
  }

  /** As {@link #adminPassword}, for the HEC token. */
  static String hecToken(String flag, String dataDir, boolean localServer) throws IOException {
    return resolve(
        flag, "QUARRY_HEC_TOKEN", dataDir, localServer, QuarryServer.HEC_TOKEN_FILE, "--token");
  }

  /**
   * The flag, else {@code QUARRY_URL}, else the local server: {@code https://127.0.0.1:8088} when
   * its data directory holds a generated TLS certificate, {@code http://127.0.0.1:8088} otherwise.
   */
  static String url(String flag, String dataDir) {
    if (flag != null) {
      return flag;
    }
    String fromEnvironment = System.getenv("QUARRY_URL");
    if (fromEnvironment != null && !fromEnvironment.isBlank()) {
      return fromEnvironment;
    }
    return Files.isReadable(GeneratedCertificate.caFile(dataDirectory(dataDir)))
        ? "https://127.0.0.1:8088"
        : "http://127.0.0.1:8088";
  }

  /** The flag, else {@code QUARRY_DATA_DIR}, else {@code ./data}. */
  static Path dataDirectory(String flag) {
    if (flag != null) {
      return Path.of(flag);
    }
    String fromEnvironment = System.getenv("QUARRY_DATA_DIR");
    return Path.of(
        fromEnvironment != null && !fromEnvironment.isBlank() ? fromEnvironment : "./data");
  }

  /**
   * @param dataDir the {@code --data-dir} flag, null for the default (not "none")
   * @param localServer whether the server is on this machine: only then is its file read
   */
  private static String resolve(
      String flag, String variable, String dataDir, boolean localServer, String file, String option)
      throws IOException {
    if (flag != null) {
      return flag;
    }
    String fromEnvironment = System.getenv(variable);
    if (fromEnvironment != null && !fromEnvironment.isBlank()) {
      return fromEnvironment;
    }
    if (!localServer) {
      throw new IllegalArgumentException(
          "no credentials: pass "
              + option
              + " or set "
              + variable
              + " (a local server's generated secret is only sent to a server on this machine)");
    }
    Path path = dataDirectory(dataDir).resolve(file);
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
