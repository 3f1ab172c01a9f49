package io.quarry.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.client.TlsTrust;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.Tls;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client certificates per route group and as users, on a real server on 127.0.0.1 with {@code
 * server.tls.clientAuth: want}: {@code clientCertificateRequired: [hec]} refuses HEC without a
 * verified certificate (403 {@code CLIENT_CERTIFICATE_REQUIRED}, before the body) while search and
 * the health checks serve clients without one; {@code certificateUsers} authenticates a request
 * without an Authorization header as the user a certificate's common name maps to — an unmapped
 * certificate is no login, and an Authorization header still decides when sent.
 */
class ClientCertificateRoutesTest {
  @TempDir Path directory;
  private QuarryServer server;
  private TestCertificates.Client shipper;
  private TestCertificates.Client bot;
  private HttpClient withoutCertificate;

  @BeforeEach
  void start() throws Exception {
    TestCertificates.Ca ca = TestCertificates.ca("Clients CA");
    shipper = TestCertificates.client(ca, "shipper-1");
    bot = TestCertificates.client(ca, "ci-bot");
    Path clientCa = directory.resolve("client-ca.pem");
    Files.writeString(
        clientCa, GeneratedCertificate.pem("CERTIFICATE", ca.certificate().getEncoded()));
    server =
        TestServers.startTls(
            directory.resolve("data"),
            "pw",
            new Tls(
                true,
                null,
                null,
                null,
                "want",
                clientCa.toString(),
                List.of("hec"),
                Map.of("ci-bot", "bob")));
    withoutCertificate = HttpClient.newBuilder().sslContext(TlsTrust.trusting(serverCa())).build();
    // bob, a plain user, defined over REST
    HttpResponse<String> bob =
        send(
            withoutCertificate,
            "POST",
            "/services/authentication/users",
            TestServers.basic("pw"),
            "name=bob&password=bob-password-1");
    assertThat(bob.statusCode()).as(bob.body()).isEqualTo(201);
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void hecNeedsACertificateSearchAndHealthChecksDoNot() throws Exception {
    HttpResponse<String> refused =
        send(withoutCertificate, "POST", "/services/collector/event", "Splunk tok", event());
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
    assertThat(refused.body()).contains("CLIENT_CERTIFICATE_REQUIRED").contains("hec");
    // a large body is not read: refused as fast as a small one, on a connection that still answers
    HttpResponse<String> large =
        send(
            withoutCertificate,
            "POST",
            "/services/collector/raw",
            "Splunk tok",
            "x".repeat(8 << 20));
    assertThat(large.statusCode()).isEqualTo(403);
    assertThat(
            send(withoutCertificate, "GET", "/services/collector/health", null, null).statusCode())
        .isEqualTo(200);
    assertThat(send(withoutCertificate, "GET", "/health", null, null).statusCode()).isEqualTo(200);
    HttpClient withShipper = TestCertificates.httpClient(shipper, serverCa());
    HttpResponse<String> accepted =
        send(withShipper, "POST", "/services/collector/event", "Splunk tok", event());
    assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(200);
    // search is the rest group: not required here
    HttpResponse<String> search = export(withoutCertificate, TestServers.basic("pw"), "* | head 1");
    assertThat(search.statusCode()).as(search.body()).isEqualTo(200);
  }

  @Test
  void aMappedCertificateStandsForItsUserAndNothingMore() throws Exception {
    HttpClient withBot = TestCertificates.httpClient(bot, serverCa());
    HttpResponse<String> users =
        send(withBot, "GET", "/services/authentication/users?output_mode=json", null, null);
    assertThat(users.statusCode()).as(users.body()).isEqualTo(200);
    assertThat(users.body()).contains("\"name\":\"bob\"").doesNotContain("\"name\":\"admin\"");
    // a search with a body and no Authorization header: bob's, not refused before the body
    HttpResponse<String> search = export(withBot, null, "| makeresults | eval who=\"bob\"");
    assertThat(search.statusCode()).as(search.body()).isEqualTo(200);
    assertThat(search.body()).contains("\"who\":\"bob\"");
    // bob is a plain user: the certificate gives no more than his roles
    HttpResponse<String> create =
        send(
            withBot,
            "POST",
            "/services/authentication/users?output_mode=json",
            null,
            "name=eve&password=eve-password-1");
    assertThat(create.statusCode()).as(create.body()).isEqualTo(403);
    // an Authorization header decides when sent: a wrong one is a 401 even with the certificate
    assertThat(
            send(withBot, "GET", "/services/authentication/users", TestServers.basic("wrong"), null)
                .statusCode())
        .isEqualTo(401);
    // an unmapped certificate, or none, is no login
    HttpClient withShipper = TestCertificates.httpClient(shipper, serverCa());
    assertThat(send(withShipper, "GET", "/services/authentication/users", null, null).statusCode())
        .isEqualTo(401);
    assertThat(
            send(withoutCertificate, "GET", "/services/authentication/users", null, null)
                .statusCode())
        .isEqualTo(401);
    assertThat(export(withoutCertificate, null, "| makeresults").statusCode()).isEqualTo(401);
  }

  @Test
  void routeGroupsAndCertificateUsersNeedClientCertificates() {
    assertThatThrownBy(
            () -> new Tls(true, null, null, null, "none", null, List.of("hec"), Map.of()))
        .hasMessageContaining("server.tls.clientAuth");
    assertThatThrownBy(
            () -> new Tls(true, null, null, null, "want", "ca.pem", List.of("ingest"), Map.of()))
        .hasMessageContaining("hec and rest");
    assertThatThrownBy(
            () -> new Tls(false, null, null, null, "want", "ca.pem", List.of(), Map.of("a", "bob")))
        .hasMessageContaining("server.tls.enabled");
    assertThat(new Tls(true, null, null, null, "want", "ca.pem", null, null).clientAuth())
        .isEqualTo("optional");
  }

  private static String event() {
    return "{\"event\":\"hello\"}";
  }

  private Path serverCa() {
    return directory.resolve("data").resolve(GeneratedCertificate.DIRECTORY).resolve("ca.pem");
  }

  private HttpResponse<String> export(HttpClient client, String authorization, String query)
      throws Exception {
    return send(
        client,
        "POST",
        "/services/search/jobs/export",
        authorization,
        "output_mode=json&search=" + URLEncoder.encode(query, StandardCharsets.UTF_8));
  }

  private HttpResponse<String> send(
      HttpClient client, String method, String path, String authorization, String body)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.url() + path)).timeout(Duration.ofSeconds(30));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    if (body != null && !path.startsWith("/services/collector")) {
      request.header("Content-Type", "application/x-www-form-urlencoded");
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
