package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.client.QuarryClient;
import io.quarry.client.TlsTrust;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.Tls;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Splunk's own Python SDK ({@code splunk-sdk} 2.1.0) over HTTPS against a Quarry with a generated
 * certificate: verifying it against the generated CA with Python's default (strict) checks, with
 * {@code verify=False}, and refusing it when the CA is not trusted.
 */
class SplunkSdkTlsTest {

  @TempDir Path dataDirectory;
  private QuarryServer server;

  @BeforeEach
  void start() throws Exception {
    server =
        TestServers.startTls(
            dataDirectory, "sdk-pw", new Tls(true, null, null, null, null, null, null, null));
    QuarryClient client =
        QuarryClient.builder(URI.create(server.url()))
            .hecToken(TestServers.TOKEN)
            .sslContext(TlsTrust.trusting(server.tls().generated().ca()))
            .build();
    List<Map<String, Object>> events = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      events.add(Map.of("event", "id=" + i + " status=" + (i % 3 == 0 ? 500 : 200)));
    }
    client.sendEvents(events);
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  @Test
  void splunksPythonSdkSearchesQuarryOverHttps() throws Exception {
    JsonNode seen =
        PythonVenv.splunkSdk(
            "/splunk-sdk/check_tls.py",
            server.port(),
            "sdk-pw",
            server.tls().generated().ca().toString());

    assertThat(seen.get("version").asText()).isEqualTo(SplunkServerRoutes.SPLUNK_API_VERSION);
    assertThat(seen.get("oneshot").toString()).isEqualTo("[{\"count\":\"30\"}]");
    assertThat(seen.get("export").toString()).isEqualTo("[{\"count\":\"10\"}]");
    assertThat(seen.get("unverified").toString()).isEqualTo("[{\"count\":\"30\"}]");
    assertThat(seen.get("untrusted").asText()).isEqualTo("SSLCertVerificationError");
  }
}
