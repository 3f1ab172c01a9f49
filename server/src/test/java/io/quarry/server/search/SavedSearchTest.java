package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestConfig;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Saved searches and Splunk's macro endpoint over a real server, through Splunk's REST paths in
 * JSON (the Atom XML and the real SDK are {@code SplunkSdkTest}'s): configured and REST-defined
 * saved searches, {@code | savedsearch} with arguments, dispatch with the saved time range,
 * ownership, what is refused, and what survives a restart.
 */
class SavedSearchTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String SAVED = "/servicesNS/nobody/search/saved/searches";

  @TempDir Path directory;
  @AutoClose private QuarryServer server;

  private static final TestConfig CONFIG =
      TestConfig.yaml(
              "indexes: [main]",
              "search:",
              "  savedSearches:",
              "    failures: {search: \"index=main status=500\", description: from config,"
                  + " earliest: \"1767225603\"}",
              "    node_failures: {search: \"index=main status=500 node=$n$ | stats count\"}")
          .user("bob");

  @BeforeEach
  void start() throws Exception {
    restart();
    TestServers.loadRaw(
        server,
        "2026-01-01 00:00:01 status=500 node=a\n"
            + "2026-01-01 00:00:02 status=200 node=a\n"
            + "2026-01-01 00:00:03 status=500 node=b\n"
            + "2026-01-01 00:00:04 status=500 node=b\n");
  }

  private void restart() throws Exception {
    server = CONFIG.restart(server, directory);
  }

  @Test
  void savedsearchRunsTheSavedTextWithItsArgumentsOverTheCallersRange() throws Exception {
    assertThat(count("| savedsearch failures | stats count")).isEqualTo(3);
    assertThat(count("| savedsearch node_failures n=b")).isEqualTo(2);
    assertThat(count("index=main [| savedsearch failures | fields node | head 1] | stats count"))
        .as("a subsearch may start with one too")
        .isEqualTo(2);
    HttpResponse<String> unknown = TestServers.export(server, "admin-pw", "| savedsearch nope");
    assertThat(unknown.statusCode()).isEqualTo(400);
    assertThat(unknown.body()).contains("Unknown saved search 'nope'");
  }

  @Test
  void dispatchUsesTheSavedTimeRangeUnlessTheCallerGivesOne() throws Exception {
    assertThat(dispatched("failures", "")).as("earliest 00:00:03 from the config").isEqualTo(2);
    assertThat(dispatched("failures", "&dispatch.earliest_time=0")).isEqualTo(3);
    JsonNode history = json(send("GET", SAVED + "/failures/history", "admin", null));
    assertThat(history.at("/entry").size()).isEqualTo(2);
  }

  @Test
  void usersOwnWhatTheyCreateAndTheConfigurationsAreReadOnly() throws Exception {
    HttpResponse<String> created =
        send("POST", SAVED, "bob", "name=mine&search=" + encode("index=main node=a | stats count"));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(json(created).at("/entry/0/acl/owner").asText()).isEqualTo("bob");
    assertThat(json(send("GET", SAVED, "admin", null)).at("/entry").size()).isEqualTo(3);
    assertThat(send("POST", SAVED, "bob", "name=mine&search=x").statusCode()).isEqualTo(409);
    assertThat(send("POST", SAVED, "bob", "name=&search=x").statusCode()).isEqualTo(400);

    HttpResponse<String> notBobs =
        send("POST", SAVED + "/failures", "bob", "search=" + encode("index=main"));
    assertThat(notBobs.statusCode()).isEqualTo(403);
    HttpResponse<String> configured = send("DELETE", SAVED + "/failures", "admin", null);
    assertThat(configured.statusCode()).isEqualTo(403);
    assertThat(configured.body()).contains("defined in the configuration");
    HttpResponse<String> scheduled =
        send("POST", SAVED, "bob", "name=nightly&search=x&is_scheduled=1&cron_schedule=0+0+*+*+*");
    assertThat(scheduled.statusCode()).isEqualTo(400);
    assertThat(scheduled.body()).contains("no search scheduler");

    HttpResponse<String> changed =
        send("POST", SAVED + "/mine", "bob", "search=" + encode("index=main node=b | stats count"));
    assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
    restart();
    assertThat(count("| savedsearch mine")).as("kept in savedsearches.json").isEqualTo(2);
    assertThat(send("DELETE", SAVED + "/mine", "admin", null).statusCode()).isEqualTo(200);
    assertThat(send("GET", SAVED + "/mine", "bob", null).statusCode()).isEqualTo(404);
  }

  @Test
  void confMacrosIsTheSameMacrosAsTheNativeApiAndAdminsToChange() throws Exception {
    String macros = "/services/configs/conf-macros";
    String body = "name=node_is&args=n&definition=" + encode("node=$n$");
    assertThat(send("POST", macros, "bob", body).statusCode()).isEqualTo(403);
    HttpResponse<String> created = send("POST", macros, "admin", body);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(json(created).at("/entry/0/name").asText()).isEqualTo("node_is(1)");
    assertThat(count("index=main `node_is(b)` | stats count")).isEqualTo(2);
    HttpResponse<String> evalMacro = send("POST", macros, "admin", "name=e&definition=1&iseval=1");
    assertThat(evalMacro.statusCode()).isEqualTo(400);
    assertThat(
            json(send("GET", "/api/v1/macros", "bob", null)).at("/macros/node_is(1)/from").asText())
        .isEqualTo("api");
    assertThat(send("DELETE", macros + "/node_is%281%29", "admin", null).statusCode())
        .isEqualTo(200);
    assertThat(send("GET", macros + "/node_is%281%29", "bob", null).statusCode()).isEqualTo(404);
  }

  private long dispatched(String name, String parameters) throws Exception {
    HttpResponse<String> response =
        send("POST", SAVED + "/" + name + "/dispatch", "admin", "output_mode=json" + parameters);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    String sid = json(response).get("sid").asText();
    long deadline = System.nanoTime() + 30_000_000_000L;
    JsonNode status;
    do {
      Thread.sleep(20);
      status = json(send("GET", "/services/search/jobs/" + sid, "admin", null));
    } while (!status.at("/entry/0/content/isDone").asBoolean() && System.nanoTime() < deadline);
    return status.at("/entry/0/content/resultCount").asLong();
  }

  private long count(String query) throws Exception {
    HttpResponse<String> response = TestServers.export(server, "admin-pw", query);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode last =
        JSON.readTree(response.body().strip().lines().reduce((a, b) -> b).orElseThrow());
    return last.at("/result/count").asLong();
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private static JsonNode json(HttpResponse<String> response) throws Exception {
    return JSON.readTree(response.body());
  }

  private HttpResponse<String> send(String method, String path, String user, String form)
      throws Exception {
    String separator = path.contains("?") ? "&" : "?";
    String credentials = user + ":" + (user.equals("admin") ? "admin-pw" : "bob-pw");
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(server.url() + path + separator + "output_mode=json"))
            .header(
                "Authorization",
                "Basic "
                    + Base64.getEncoder()
                        .encodeToString(credentials.getBytes(StandardCharsets.UTF_8)))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .method(
                method,
                form == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(form))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
