package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The search page's files: content types, caching, nothing outside the page's folder. */
class UiRoutesTest {
  @TempDir Path dataDirectory;
  private QuarryServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    server = TestServers.start(dataDirectory, "pw");
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  private HttpResponse<String> get(String path, String... headers) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url() + path));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aBrowserAskingForTheRootIsSentToThePageAndProgramsStillGetTheServerInfo() throws Exception {
    HttpResponse<String> browser = get("/", "Accept", "text/html,application/xhtml+xml,*/*;q=0.8");
    assertThat(browser.statusCode()).isEqualTo(302);
    assertThat(browser.headers().firstValue("Location")).hasValue("/ui/");

    HttpResponse<String> program = get("/");
    assertThat(program.statusCode()).isEqualTo(200);
    assertThat(program.body()).contains("\"name\":\"quarry\"");
    // the test JVMs run with the Vector API, as the launcher starts the server
    assertThat(program.body()).containsPattern("\"keyValueScan\":\"vector \\d+-bit\"");
    assertThat(program.body())
        .containsPattern("\"termClassifier\":\"vector \\d+-bit (permutes|compares)\"");
  }

  @Test
  void thePageAndItsFilesComeWithTheirTypesAndCaching() throws Exception {
    HttpResponse<String> page = get("/ui/");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
    assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-cache");
    assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
        .contains("default-src 'self'")
        .contains("frame-ancestors 'none'");
    assertThat(page.body()).contains("<title>Search | Quarry</title>");
    assertThat(get("/ui").body()).isEqualTo(page.body());

    String etag = page.headers().firstValue("ETag").orElseThrow();
    HttpResponse<String> again = get("/ui/", "If-None-Match", etag);
    assertThat(again.statusCode()).isEqualTo(304);
    assertThat(again.body()).isEmpty();

    HttpResponse<String> script = get("/ui/app.js");
    assertThat(script.statusCode()).isEqualTo(200);
    assertThat(script.headers().firstValue("Content-Type"))
        .hasValue("text/javascript; charset=utf-8");
    assertThat(script.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    assertThat(get("/ui/style.css").headers().firstValue("Content-Type"))
        .hasValue("text/css; charset=utf-8");
    assertThat(get("/ui/favicon.svg").headers().firstValue("Content-Type"))
        .hasValue("image/svg+xml");

    HttpResponse<String> vendored = get("/ui/vendor/uPlot-1.6.32.iife.min.js");
    assertThat(vendored.statusCode()).isEqualTo(200);
    assertThat(vendored.headers().firstValue("Cache-Control"))
        .hasValue("public, max-age=31536000, immutable");
  }

  @Test
  void nothingOutsideThePagesFolderIsServed() throws Exception {
    for (String path :
        new String[] {
          "/ui/nothing.js",
          "/ui/..%2Fopenapi.json",
          "/ui/%2e%2e%2f%2e%2e%2frest%2fopenapi.json",
          "/ui/vendor/..%2F..%2Frest%2Fopenapi.json",
          "/ui/vendor/..%2Fapp.js",
          "/ui/vendor%2F..%2F..%2Frest%2Fopenapi.json",
          "/ui/vendor%2FuPlot-LICENSE.txt",
          "/ui/vendor",
          "/ui/vendor/",
          "/ui/.hidden.js",
          "/ui/app",
          "/ui/UiRoutes.class",
          "/ui/a%5Cb.js",
        }) {
      HttpResponse<String> answer = get(path);
      assertThat(answer.statusCode()).as(path).isEqualTo(404);
      assertThat(answer.body()).as(path).contains("NOT_FOUND").doesNotContain("openapi\":");
    }
    // the page's own folder does not list itself
    assertThat(get("/ui/vendor/README.md").statusCode()).isEqualTo(404);
  }

  @Test
  void aScriptsRequestWithoutCredentialsGetsNoBasicChallenge() throws Exception {
    HttpResponse<String> browser = get("/api/v1/jobs");
    assertThat(browser.statusCode()).isEqualTo(401);
    assertThat(browser.headers().firstValue("WWW-Authenticate")).isPresent();

    HttpResponse<String> script = get("/api/v1/jobs", "X-Requested-With", "XMLHttpRequest");
    assertThat(script.statusCode()).isEqualTo(401);
    assertThat(script.headers().firstValue("WWW-Authenticate")).isEmpty();
    assertThat(script.body()).contains("UNAUTHORIZED");
  }

  @Test
  void aJobsStatusSaysWhetherItsResultsAreATable() throws Exception {
    String auth =
        "Basic "
            + java.util.Base64.getEncoder()
                .encodeToString("admin:pw".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    for (String[] query :
        new String[][] {{"| makeresults | stats count", "true"}, {"| makeresults", "false"}}) {
      HttpResponse<String> created =
          http.send(
              HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/jobs"))
                  .header("Authorization", auth)
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"query\": \"" + query[0] + "\", \"mode\": \"blocking\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(created.statusCode()).isEqualTo(201);
      assertThat(created.body()).as(query[0]).contains("\"transforming\":" + query[1]);
    }
  }
}
