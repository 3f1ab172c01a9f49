package io.quarry.server.rest;

import static io.quarry.server.TestHttp.basic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestConfig;
import io.quarry.server.TestHttp;
import io.quarry.server.TestServers;
import io.quarry.server.config.ConfigException;
import io.quarry.server.config.ConfigLoader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Users from {@code auth.users} beside {@code admin}: each searches with Basic or a session key,
 * sees only their own jobs (admin sees all), reads lookups but may not change them.
 */
class UsersTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestConfig.yaml().user("alice").user("bob").start(directory);
    TestServers.loadRaw(server, "one event\nanother event\n");
  }

  @Test
  void eachUserSearchesAndSeesOnlyTheirOwnJobs() throws Exception {
    HttpResponse<String> created =
        send("POST", "/api/v1/jobs", basic("alice", "alice-pw"), "{\"query\":\"search event\"}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String id = JSON.readTree(created.body()).path("id").asText();

    assertThat(send("GET", "/api/v1/jobs/" + id, basic("alice", "alice-pw"), null).statusCode())
        .isEqualTo(200);
    assertThat(send("GET", "/api/v1/jobs/" + id, basic("admin", "admin-pw"), null).statusCode())
        .isEqualTo(200);
    HttpResponse<String> hidden = send("GET", "/api/v1/jobs/" + id, basic("bob", "bob-pw"), null);
    assertThat(hidden.statusCode()).isEqualTo(404);
    assertThat(hidden.body())
        .isEqualTo(
            send("GET", "/api/v1/jobs/" + id + "x", basic("bob", "bob-pw"), null)
                .body()
                .replace(id + "x", id));
    assertThat(ids(send("GET", "/api/v1/jobs", basic("bob", "bob-pw"), null))).doesNotContain(id);
    assertThat(ids(send("GET", "/api/v1/jobs", basic("alice", "alice-pw"), null))).contains(id);

    // Splunk's endpoints: the owner is the user, and others cannot steer the job
    HttpResponse<String> status =
        send(
            "GET",
            "/services/search/jobs/" + id + "?output_mode=json",
            basic("alice", "alice-pw"),
            null);
    assertThat(JSON.readTree(status.body()).at("/entry/0/acl/owner").asText()).isEqualTo("alice");
    HttpResponse<String> control =
        send(
            "POST",
            "/services/search/jobs/" + id + "/control",
            basic("bob", "bob-pw"),
            "action=cancel");
    assertThat(control.statusCode()).isEqualTo(404);
  }

  @Test
  void usersLogInForSessionKeys() throws Exception {
    HttpResponse<String> login =
        send(
            "POST",
            "/services/auth/login?output_mode=json",
            null,
            "username=bob&password=" + URLEncoder.encode("bob-pw", StandardCharsets.UTF_8));
    assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
    String key = JSON.readTree(login.body()).path("sessionKey").asText();
    HttpResponse<String> search =
        send(
            "POST",
            "/services/search/jobs/export",
            "Splunk " + key,
            "output_mode=json&search=" + URLEncoder.encode("search event", StandardCharsets.UTF_8));
    assertThat(search.statusCode()).as(search.body()).isEqualTo(200);
    assertThat(search.body()).contains("another event");

    assertThat(
            send("POST", "/services/auth/login", null, "username=bob&password=alice-pw")
                .statusCode())
        .isEqualTo(401);
    assertThat(send("POST", "/services/auth/login", null, "username=carol&password=x").statusCode())
        .isEqualTo(401);
    assertThat(send("GET", "/api/v1/indexes", basic("bob", "wrong"), null).statusCode())
        .isEqualTo(401);
  }

  @Test
  void theJavaClientSearchesAsAUserOrWithASessionKey() throws Exception {
    io.quarry.client.QuarryClient alice =
        io.quarry.client.QuarryClient.builder(URI.create(server.url()))
            .credentials("alice", "alice-pw")
            .build();
    io.quarry.client.SearchJob job = alice.submit("search event | stats count", null, null);
    job.await(java.time.Duration.ofSeconds(30));
    assertThat(job.results(0, 10).rows()).containsExactly(java.util.List.of(2L));

    String key =
        JSON.readTree(
                send(
                        "POST",
                        "/services/auth/login?output_mode=json",
                        null,
                        "username=bob&password=bob-pw")
                    .body())
            .path("sessionKey")
            .asText();
    io.quarry.client.QuarryClient bob =
        io.quarry.client.QuarryClient.builder(URI.create(server.url())).token(key).build();
    assertThat(bob.search("search another").rows()).hasSize(1);
    assertThat(
            bob.submit("search event", null, null).await(java.time.Duration.ofSeconds(30)).rows())
        .isEqualTo(2);
    assertThatThrownBy(
            () ->
                io.quarry.client.QuarryClient.builder(URI.create(server.url()))
                    .credentials("alice", "nope")
                    .build()
                    .search("event"))
        .isInstanceOf(io.quarry.client.QuarryClientException.class)
        .hasMessageContaining("401");
  }

  @Test
  void onlyAdminChangesLookups() throws Exception {
    HttpResponse<String> denied =
        send("PUT", "/api/v1/lookups/hosts", basic("alice", "alice-pw"), "host,owner\na,b\n");
    assertThat(denied.statusCode()).isEqualTo(403);
    assertThat(denied.body())
        .contains("MISSING_CAPABILITY")
        .contains("edit_lookups")
        .contains("alice");
    assertThat(
            send("PUT", "/api/v1/lookups/hosts", basic("admin", "admin-pw"), "host,owner\na,b\n")
                .statusCode())
        .isEqualTo(200);
    HttpResponse<String> read =
        send("GET", "/api/v1/lookups/hosts", basic("alice", "alice-pw"), null);
    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(read.body()).contains("host,owner");
    assertThat(send("DELETE", "/api/v1/lookups/hosts", basic("bob", "bob-pw"), null).statusCode())
        .isEqualTo(403);
  }

  @Test
  void badUserEntriesAreNamed(@TempDir Path other) throws Exception {
    Path config = other.resolve("quarry.yml");
    Files.writeString(config, "auth:\n  users:\n    - {name: admin, password: x}\n");
    assertThatThrownBy(() -> ConfigLoader.load(config, Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("adminPassword");
    Files.writeString(
        config,
        "auth:\n  users:\n    - {name: eve, password: a}\n    - {name: eve, password: b}\n");
    assertThatThrownBy(() -> ConfigLoader.load(config, Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("'eve' twice");
    Files.writeString(config, "auth:\n  users:\n    - {name: mallory}\n");
    assertThatThrownBy(() -> ConfigLoader.load(config, Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("no password");
  }

  private static java.util.List<String> ids(HttpResponse<String> list) throws Exception {
    java.util.List<String> ids = new java.util.ArrayList<>();
    for (JsonNode job : JSON.readTree(list.body()).path("jobs")) {
      ids.add(job.path("id").asText());
    }
    return ids;
  }

  /** {@link TestHttp#send} to the server. */
  private static HttpResponse<String> send(
      String method, String path, String authorization, String body) throws Exception {
    return new TestHttp(server.url()).send(method, path, authorization, body);
  }
}
