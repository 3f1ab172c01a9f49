package io.quarry.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.client.TlsTrust;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.ConfigException;
import io.quarry.server.config.Tls;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutual TLS on a real server on 127.0.0.1 ({@code server.tls.clientAuth}, {@code
 * server.tls.clientCa}): {@code required} serves a client with a certificate the configured CA
 * signed and refuses the handshake without one or with one another CA signed; {@code optional}
 * serves clients without a certificate but still refuses a wrong one; a client certificate does not
 * replace credentials; bad settings stop the server at start naming the setting.
 */
class MutualTlsTest {
  @TempDir Path directory;
  private QuarryServer server;

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void requiredClientCertificatesGateTheWholePort() throws Exception {
    TestCertificates.Client trusted = client("Trusted clients CA", "shipper-1");
    TestCertificates.Client rogue = client("Rogue CA", "shipper-1");
    Path clientCa = writeCa(trusted.ca());
    server = start("required", clientCa);
    SSLContext serverTrust = TlsTrust.trusting(serverCa());

    HttpResponse<String> health = get(with(trusted), "/health", null);
    assertThat(health.statusCode()).isEqualTo(200);
    // the certificate is a gate, not a login: searching still needs credentials
    assertThat(get(with(trusted), "/services/server/info", null).statusCode()).isEqualTo(401);
    assertThat(get(with(trusted), "/services/server/info", TestServers.basic("pw")).statusCode())
        .isEqualTo(200);
    HttpResponse<String> hec =
        send(with(trusted), "/services/collector/event", "Splunk tok", "{\"event\":\"mtls\"}");
    assertThat(hec.statusCode()).as(hec.body()).isEqualTo(200);

    HttpClient withoutCertificate = HttpClient.newBuilder().sslContext(serverTrust).build();
    assertThatThrownBy(() -> get(withoutCertificate, "/health", null))
        .isInstanceOf(java.io.IOException.class);
    assertThatThrownBy(() -> get(with(rogue), "/health", null))
        .isInstanceOf(java.io.IOException.class);
    // and the server serves on
    assertThat(get(with(trusted), "/health", null).statusCode()).isEqualTo(200);
  }

  @Test
  void optionalClientCertificatesServeClientsWithoutOneButRefuseAWrongOne() throws Exception {
    TestCertificates.Client trusted = client("Trusted clients CA", "agent");
    TestCertificates.Client rogue = client("Rogue CA", "agent");
    server = start("optional", writeCa(trusted.ca()));
    HttpClient withoutCertificate =
        HttpClient.newBuilder().sslContext(TlsTrust.trusting(serverCa())).build();
    assertThat(get(withoutCertificate, "/health", null).statusCode()).isEqualTo(200);
    assertThat(get(with(trusted), "/health", null).statusCode()).isEqualTo(200);
    assertThatThrownBy(() -> get(with(rogue), "/health", null))
        .isInstanceOf(java.io.IOException.class);
  }

  @Test
  void badClientAuthSettingsStopTheServerNamingTheSetting() throws Exception {
    assertThatThrownBy(() -> new Tls(true, null, null, null, "required", null, null, null))
        .hasMessageContaining("server.tls.clientCa");
    assertThatThrownBy(() -> new Tls(true, null, null, null, "sometimes", "ca.pem", null, null))
        .hasMessageContaining("server.tls.clientAuth");
    assertThatThrownBy(() -> start("required", directory.resolve("missing.pem")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("server.tls.clientCa");
    Path notPem = directory.resolve("not.pem");
    Files.writeString(notPem, "not a certificate");
    assertThatThrownBy(() -> start("optional", notPem))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("server.tls.clientCa");
  }

  private QuarryServer start(String clientAuth, Path clientCa) throws Exception {
    return TestServers.startTls(
        directory.resolve("data"),
        "pw",
        new Tls(true, null, null, null, clientAuth, clientCa.toString(), null, null));
  }

  private Path serverCa() {
    return directory.resolve("data").resolve(GeneratedCertificate.DIRECTORY).resolve("ca.pem");
  }

  private Path writeCa(X509Certificate ca) throws Exception {
    Path file = directory.resolve("client-ca.pem");
    Files.writeString(file, GeneratedCertificate.pem("CERTIFICATE", ca.getEncoded()));
    return file;
  }

  private HttpClient with(TestCertificates.Client client) throws Exception {
    return TestCertificates.httpClient(client, serverCa());
  }

  private static TestCertificates.Client client(String caName, String clientName) throws Exception {
    return TestCertificates.client(TestCertificates.ca(caName), clientName);
  }

  private HttpResponse<String> get(HttpClient client, String path, String authorization)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.url() + path)).timeout(Duration.ofSeconds(30));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> send(
      HttpClient client, String path, String authorization, String body) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(server.url() + path))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", authorization)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
