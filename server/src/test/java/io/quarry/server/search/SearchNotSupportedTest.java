package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A search whose combination of commands has no page stage yet is refused whole, before it reads
 * anything: HTTP 400 {@code SEARCH_NOT_SUPPORTED} naming its commands (a JSON body a client can act
 * on), for a search and for its {@code explain} alike — never a 500 or a half answer. The forms
 * here are those still refused when the row engine was deleted (session 27); each that gains a page
 * stage moves out of this list.
 */
class SearchNotSupportedTest {
  private static final String PASSWORD = "not-supported-pw";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path root;
  private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(root.resolve("data"), PASSWORD);
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void refusedWithA400NamingTheCommands() throws Exception {
    for (List<String> form :
        List.of(
            List.of("* | eventstats count AS host", "eventstats"),
            List.of("* | rename re* AS x* | eval y=1 | mvexpand team | head 5", "rename"))) {
      String query = form.get(0);
      HttpResponse<String> answer = search(query);
      assertThat(answer.statusCode()).as(query + ": " + answer.body()).isEqualTo(400);
      JsonNode error = JSON.readTree(answer.body()).path("error");
      assertThat(error.path("code").asText()).as(query).isEqualTo("SEARCH_NOT_SUPPORTED");
      assertThat(error.path("message").asText()).as(query).contains("not supported yet");
      List<String> commands = JSON.convertValue(error.path("commands"), List.class);
      assertThat(commands).as(query).containsAll(form.subList(1, form.size()));
    }
  }

  @Test
  void aSupportedSearchIsNotRefused() throws Exception {
    assertThat(search("* | eventstats count AS n | head 1").statusCode()).isEqualTo(200);
  }

  private static HttpResponse<String> search(String query) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/search"))
                .header("Authorization", TestServers.basic(PASSWORD))
                .header("Accept", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        JSON.writeValueAsString(java.util.Map.of("query", query))))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }
}
