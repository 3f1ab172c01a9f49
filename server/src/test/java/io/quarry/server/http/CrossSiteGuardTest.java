package io.quarry.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestHttp;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real server refuses a state-changing request a page of another origin made a browser send (403
 * {@code CROSS_SITE_REQUEST} naming the origin, before routing: not even a 401), and serves its own
 * origin, requests without {@code Origin} and reads.
 */
class CrossSiteGuardTest {
  private static final String ADMIN = TestHttp.basic("admin", "pw");
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(directory, "pw");
  }

  @Test
  void anotherOriginsPostIsRefusedNamingIt() throws Exception {
    HttpResponse<String> refused = post("https://evil.example", null);
    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(refused.body()).contains("CROSS_SITE_REQUEST").contains("https://evil.example");
  }

  @Test
  void theSameHostOnAnotherPortOrSchemeIsAnotherOrigin() throws Exception {
    URI own = URI.create(server.url());
    assertThat(post("http://" + own.getHost() + ":" + (own.getPort() + 1), null).statusCode())
        .isEqualTo(403);
    assertThat(post("https://" + own.getHost() + ":" + own.getPort(), null).statusCode())
        .isEqualTo(403);
    assertThat(post("null", null).statusCode()).isEqualTo(403); // a sandboxed page
  }

  @Test
  void theServersOwnOriginAndClientsWithoutOriginPass() throws Exception {
    assertThat(post(server.url(), "same-origin").statusCode()).isEqualTo(201);
    assertThat(post(null, null).statusCode()).isEqualTo(201);
  }

  @Test
  void behindAReverseProxyTheOriginItForwardedPasses() throws Exception {
    HttpResponse<String> proxied =
        CLIENT.send(
            HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/jobs"))
                .header("Authorization", ADMIN)
                .header("Origin", "https://quarry.example")
                .header("X-Forwarded-Proto", "https")
                .header("X-Forwarded-Host", "quarry.example")
                .POST(HttpRequest.BodyPublishers.ofString("{\"query\": \"| makeresults\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(proxied.statusCode()).as(proxied.body()).isEqualTo(201);
    assertThat(post("https://other.example", null).statusCode()).isEqualTo(403);
  }

  @Test
  void secFetchSiteCrossSiteWithoutOriginIsRefused() throws Exception {
    assertThat(post(null, "cross-site").statusCode()).isEqualTo(403);
  }

  @Test
  void aReadFromAnotherOriginIsNotRefusedHere() throws Exception {
    HttpResponse<String> read =
        CLIENT.send(
            HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/indexes"))
                .header("Authorization", ADMIN)
                .header("Origin", "https://evil.example")
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(read.statusCode()).isEqualTo(200); // no CORS header: the page cannot read it
  }

  private static HttpResponse<String> post(String origin, String fetchSite) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/jobs"))
            .header("Authorization", ADMIN)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"query\": \"| makeresults\"}"));
    if (origin != null) {
      request.header("Origin", origin);
    }
    if (fetchSite != null) {
      request.header("Sec-Fetch-Site", fetchSite);
    }
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
