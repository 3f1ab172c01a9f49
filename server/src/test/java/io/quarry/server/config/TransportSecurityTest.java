package io.quarry.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.server.QuarryServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plain HTTP is served on loopback by default, and refused on any other address unless TLS is on or
 * {@code server.allowPlaintext} says so; the TLS settings from the file and environment.
 */
class TransportSecurityTest {
  @TempDir Path directory;

  private static Server server(String bind, Tls tls, Boolean plaintext) {
    return QuarryConfig.builder()
        .put("server.bind", bind)
        .put("server.tls", tls)
        .put("server.allowPlaintext", plaintext)
        .build()
        .server();
  }

  @Test
  void loopbackServesPlainHttpByDefault() {
    for (String loopback : new String[] {"127.0.0.1", "localhost", "::1", "127.0.0.2"}) {
      assertThat(server(loopback, null, null).plaintextRefusal()).as(loopback).isNull();
    }
    assertThat(server(null, null, null).bind()).isEqualTo("127.0.0.1");
  }

  @Test
  void aNetworkAddressWithoutTlsIsRefusedNamingTheSettings() {
    String refusal = server("0.0.0.0", null, null).plaintextRefusal();
    assertThat(refusal)
        .contains("0.0.0.0")
        .contains("server.tls.enabled: true")
        .contains("server.allowPlaintext: true");
    assertThat(server("0.0.0.0", null, true).plaintextRefusal()).isNull();
    assertThat(
            server("0.0.0.0", new Tls(true, null, null, null, null, null, null, null), null)
                .plaintextRefusal())
        .isNull();
    assertThat(
            server("0.0.0.0", new Tls(false, "c.pem", "k.pem", null, null, null, null, null), null)
                .plaintextRefusal())
        .as("a certificate without enabled is not TLS")
        .isNotNull();
  }

  @Test
  void theServerDoesNotStartOnANetworkAddressWithoutTls() {
    QuarryConfig config =
        QuarryConfig.builder()
            .put("server", server("0.0.0.0", null, null))
            .put("server.port", 0) // were it to start, on no fixed port
            .put("dataDir", directory.toString())
            .put("auth.adminPassword", "pw")
            .build();
    assertThatThrownBy(() -> QuarryServer.start(config, Clock.systemUTC()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("server.allowPlaintext");
    assertThat(directory).isEmptyDirectory();
  }

  @Test
  void certificateAndKeyGoTogether() {
    assertThatThrownBy(() -> new Tls(true, "c.pem", null, null, null, null, null, null))
        .hasMessageContaining("server.tls")
        .hasMessageContaining("without key");
  }

  @Test
  void tlsSettingsFromTheFileAndTheEnvironment() throws Exception {
    Path file = directory.resolve("quarry.yml");
    Files.writeString(
        file,
        """
        server:
          bind: 0.0.0.0
          tls:
            enabled: true
            certificate: /etc/quarry/cert.pem
            key: /etc/quarry/key.pem
        """);
    QuarryConfig fromFile = ConfigLoader.load(file, Map.of(), Map.of());
    assertThat(fromFile.server().tls())
        .isEqualTo(
            new Tls(
                true, "/etc/quarry/cert.pem", "/etc/quarry/key.pem", null, null, null, null, null));
    assertThat(fromFile.server().plaintextRefusal()).isNull();

    QuarryConfig fromEnvironment =
        ConfigLoader.load(
            null,
            Map.of(
                "QUARRY_BIND", "0.0.0.0",
                "QUARRY_TLS_ENABLED", "true",
                "QUARRY_TLS_CERTIFICATE", "/c.pem",
                "QUARRY_TLS_KEY", "/k.pem",
                "QUARRY_TLS_KEY_PASSWORD", "secret"),
            Map.of());
    assertThat(fromEnvironment.server().tls())
        .isEqualTo(new Tls(true, "/c.pem", "/k.pem", "secret", null, null, null, null));
    QuarryConfig plaintext =
        ConfigLoader.load(
            null, Map.of("QUARRY_BIND", "0.0.0.0", "QUARRY_ALLOW_PLAINTEXT", "true"), Map.of());
    assertThat(plaintext.server().allowPlaintext()).isTrue();
    assertThat(plaintext.server().plaintextRefusal()).isNull();
  }
}
