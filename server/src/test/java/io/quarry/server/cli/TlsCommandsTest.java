package io.quarry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.Tls;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quarry search} and {@code quarry ingest} against a server with a generated TLS
 * certificate: the local server's CA is trusted from its data directory, {@code --ca-cert} names
 * one, {@code --insecure} skips the check, and without any of these the certificate is refused.
 */
class TlsCommandsTest {
  @TempDir Path directory;
  private QuarryServer server;
  private Path data;

  @BeforeEach
  void start() throws Exception {
    data = directory.resolve("data");
    server =
        TestServers.startTls(data, "pw", new Tls(true, null, null, null, null, null, null, null));
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  private record Run(int exit, String out, String err) {}

  private static Run cli(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
      int exit = QuarryCli.commandLine().execute(args);
      return new Run(
          exit, printed.toString(StandardCharsets.UTF_8), errors.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }

  @Test
  void theLocalServersGeneratedCaIsTrustedFromItsDataDirectory() throws Exception {
    Path log = directory.resolve("app.log");
    Files.writeString(log, "one tls line\nanother tls line\n");
    Run ingest =
        cli(
            "ingest",
            "--url=" + server.url(),
            "--data-dir=" + data,
            "--token=" + TestServers.TOKEN,
            "--no-resume",
            "--sourcetype=tlsapp",
            log.toString());
    assertThat(ingest.exit()).as(ingest.err()).isZero();
    Run search =
        cli(
            "search",
            "--url=" + server.url(),
            "--data-dir=" + data,
            "--password=pw",
            "sourcetype=tlsapp | stats count");
    assertThat(search.exit()).as(search.err()).isZero();
    assertThat(search.out()).contains("2");
  }

  @Test
  void caCertInsecureAndRefusal() {
    Path elsewhere = directory.resolve("elsewhere");
    Run trusted =
        cli(
            "search",
            "--url=" + server.url(),
            "--data-dir=" + elsewhere,
            "--ca-cert=" + server.tls().generated().ca(),
            "--password=pw",
            "index=main | stats count");
    assertThat(trusted.exit()).as(trusted.err()).isZero();

    Run refused =
        cli("search", "--url=" + server.url(), "--data-dir=" + elsewhere, "--password=pw", "x");
    assertThat(refused.exit()).isNotZero();

    Run insecure =
        cli(
            "search",
            "--url=" + server.url(),
            "--data-dir=" + elsewhere,
            "--insecure",
            "--password=pw",
            "index=main | stats count");
    assertThat(insecure.exit()).as(insecure.err()).isZero();
    assertThat(insecure.err()).contains("--insecure");
  }

  @Test
  void theDefaultUrlIsHttpsWhenTheDataDirectoryHoldsAGeneratedCertificate() {
    assertThat(LocalCredentials.url(null, data.toString())).isEqualTo("https://127.0.0.1:8088");
    assertThat(LocalCredentials.url(null, directory.resolve("none").toString()))
        .isEqualTo("http://127.0.0.1:8088");
  }
}
