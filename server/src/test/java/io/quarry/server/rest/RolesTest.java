package io.quarry.server.rest;

import static io.quarry.server.TestHttp.basic;
import static io.quarry.server.TestHttp.encode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestHttp;
import io.quarry.server.TestServers;
import io.quarry.server.auth.PasswordHash;
import io.quarry.server.config.ConfigException;
import io.quarry.server.config.ConfigLoader;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Roles (auth.roles) over a real server: which indexes each user's searches read on every search
 * path (export, the streaming API, jobs and their inspector, field summaries), default indexes, the
 * role search filter, the {@code edit_lookups} capability for lookup changes and {@code
 * outputlookup}, and PBKDF2-hashed passwords.
 */
class RolesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;
  private static TestHttp http;

  @BeforeAll
  static void start() throws Exception {
    Path config = directory.resolve("quarry.yml");
    Files.writeString(
        config,
        """
        server: {bind: 127.0.0.1, port: 0}
        dataDir: %s
        indexes: [main, web]
        auth:
          adminPassword: admin-pw
          users:
            - {name: bob, password: "%s"}
            - {name: wendy, password: wendy-pw, roles: [webonly]}
            - {name: libby, password: libby-pw, roles: [user, lookups]}
            - {name: erin, password: erin-pw, roles: [errors]}
          roles:
            webonly: {srchIndexesAllowed: [web], srchIndexesDefault: [web]}
            lookups: {capabilities: [edit_lookups]}
            errors: {srchIndexesAllowed: ["*"], srchIndexesDefault: [main, web], srchFilter: failed}
        hec:
          tokens: [{token: tok, name: test, defaultIndex: main, indexes: [main, web]}]
        """
            .formatted(directory.resolve("data"), PasswordHash.hash("bob-pw")));
    server = QuarryServer.start(ConfigLoader.load(config, Map.of(), Map.of()), Clock.systemUTC());
    http = new TestHttp(server.url());
    TestServers.loadRaw(server, "main", "main one\nmain two failed\n");
    TestServers.loadRaw(server, "web", "web one\nweb two failed\n");
    // _internal holds the server's own log ("listening on …") once the log writer has run
    http.awaitRows(
        basic("admin", "admin-pw"), "_internal has the start record", "index=_internal listening");
  }

  @Test
  void mapRunsItsSearchesAsTheUserWhoRanIt() throws Exception {
    // wendy reads web only: a mapped search naming main reads nothing, and says why
    String toMain = "| makeresults | eval i=\"main\" | map search=\"search index=$i$ one\"";
    assertThat(count("wendy", "wendy-pw", toMain)).isZero();
    assertThat(count("admin", "admin-pw", toMain)).isEqualTo(1);
    assertThat(exportLast("wendy", "wendy-pw", toMain + " | stats count").toString())
        .contains("index 'main' is not searchable by user wendy");
    // erin's role filter (failed) applies inside the mapped search: web two only
    String web = "| makeresults | map search=\"search index=web\"";
    assertThat(count("erin", "erin-pw", web)).isEqualTo(1);
    assertThat(count("admin", "admin-pw", web)).isEqualTo(2);
  }

  @Test
  void aPlainUserNeverReadsInternalIndexes() throws Exception {
    for (String query :
        java.util.List.of(
            "index=_internal",
            "index=_INTERNAL",
            "index=*",
            "index=_*",
            "index IN (main, _internal)",
            "index=main OR index=_internal",
            "index=_internal OR listening")) {
      assertThat(count("bob", "bob-pw", query + " listening")).as(query).isZero();
    }
    assertThat(count("admin", "admin-pw", "index=_internal listening")).isPositive();
    assertThat(count("admin", "admin-pw", "index=_* listening")).isPositive();

    // the answer says why
    JsonNode export = exportLast("bob", "bob-pw", "index=_internal | stats count");
    assertThat(export.toString()).contains("index '_internal' is not searchable by user bob");

    // a job, its results and its inspector
    HttpResponse<String> created =
        http.send(
            "POST",
            "/api/v1/jobs",
            basic("bob", "bob-pw"),
            "{\"query\":\"index=_internal OR index=main | stats count\",\"mode\":\"blocking\"}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    JsonNode job = JSON.readTree(created.body());
    String id = job.path("id").asText();
    HttpResponse<String> results =
        http.send("GET", "/api/v1/jobs/" + id + "/results", basic("bob", "bob-pw"), null);
    assertThat(results.body()).contains("2").doesNotContain("_internal\"");
    JsonNode inspect =
        JSON.readTree(
            http.send("GET", "/api/v1/jobs/" + id + "/inspect", basic("bob", "bob-pw"), null)
                .body());
    // an index= inside OR reads every index the user may search, then filters by index
    assertThat(inspect.at("/plan/indexes").toString()).isEqualTo("[\"main\",\"web\"]");

    // the field summary
    HttpResponse<String> fields =
        http.send(
            "POST",
            "/api/v1/fields",
            basic("bob", "bob-pw"),
            "{\"query\":\"index=_internal OR index=main\"}");
    assertThat(fields.statusCode()).as(fields.body()).isEqualTo(200);
    assertThat(fields.body()).doesNotContain("quarry:log").contains("app");

    // the streaming search API
    HttpResponse<String> stream =
        http.send(
            "POST",
            "/api/v1/search",
            basic("bob", "bob-pw"),
            "{\"query\":\"index=_internal | stats count\"}");
    assertThat(stream.statusCode()).as(stream.body()).isEqualTo(200);
    assertThat(stream.body()).contains("not searchable by user bob");

    // explain shows only what is read
    HttpResponse<String> explain =
        http.send(
            "POST",
            "/services/search/jobs/export",
            basic("bob", "bob-pw"),
            "output_mode=json&explain=true&search=" + encode("index=*"));
    assertThat(JSON.readTree(explain.body()).at("/explain/indexes").toString())
        .isEqualTo("[\"main\",\"web\"]");
  }

  @Test
  void aPlainUserReadsEveryOtherIndexAndMainByDefault() throws Exception {
    assertThat(count("bob", "bob-pw", "one")).isEqualTo(1); // main only
    assertThat(count("bob", "bob-pw", "index=* one")).isEqualTo(2);
    assertThat(count("bob", "bob-pw", "index=web one")).isEqualTo(1);
  }

  @Test
  void aRoleRestrictedToWebSeesOnlyWeb() throws Exception {
    assertThat(count("wendy", "wendy-pw", "one")).isEqualTo(1); // default web
    assertThat(count("wendy", "wendy-pw", "index=* one")).isEqualTo(1);
    assertThat(count("wendy", "wendy-pw", "index=main one")).isZero();
    assertThat(count("wendy", "wendy-pw", "index=_internal listening")).isZero();
    assertThat(exportLast("wendy", "wendy-pw", "index=main | stats count").toString())
        .contains("index 'main' is not searchable by user wendy");
    assertThat(exportLast("wendy", "wendy-pw", "index=web | stats count").toString())
        .doesNotContain("not searchable");
  }

  @Test
  void theIndexListShowsOnlyReadableIndexes() throws Exception {
    assertThat(indexNames("admin", "admin-pw")).contains("main", "web", "_internal");
    assertThat(indexNames("bob", "bob-pw")).containsExactlyInAnyOrder("main", "web");
    assertThat(indexNames("wendy", "wendy-pw")).containsExactly("web");
  }

  private static java.util.List<String> indexNames(String user, String password) throws Exception {
    HttpResponse<String> answer = http.send("GET", "/api/v1/indexes", basic(user, password), null);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    java.util.List<String> names = new java.util.ArrayList<>();
    for (JsonNode index : JSON.readTree(answer.body()).path("indexes")) {
      names.add(index.path("name").asText());
    }
    return names;
  }

  @Test
  void aRoleSearchFilterIsAndedIntoEverySearch() throws Exception {
    assertThat(count("erin", "erin-pw", "*")).isEqualTo(2); // main and web, failed only
    assertThat(count("erin", "erin-pw", "one")).isZero();
    assertThat(count("erin", "erin-pw", "NOT failed")).isZero();
    assertThat(count("admin", "admin-pw", "index=* NOT failed")).isEqualTo(2);
  }

  @Test
  void lookupChangesAndOutputlookupNeedEditLookups() throws Exception {
    assertThat(
            http.send(
                    "PUT",
                    "/api/v1/lookups/owners",
                    basic("admin", "admin-pw"),
                    "host,owner\na,b\n")
                .statusCode())
        .isEqualTo(200);

    HttpResponse<String> denied =
        http.send(
            "POST",
            "/services/search/jobs/export",
            basic("bob", "bob-pw"),
            "output_mode=json&search=" + encode("one | table _raw | outputlookup owners"));
    assertThat(denied.statusCode()).as(denied.body()).isEqualTo(403);
    assertThat(denied.body()).contains("edit_lookups").contains("bob");
    HttpResponse<String> job =
        http.send(
            "POST",
            "/api/v1/jobs",
            basic("bob", "bob-pw"),
            "{\"query\":\"one | table _raw | outputlookup owners\"}");
    assertThat(job.statusCode()).as(job.body()).isEqualTo(403);
    assertThat(job.body()).contains("MISSING_CAPABILITY");
    HttpResponse<String> upload =
        http.send("PUT", "/api/v1/lookups/owners", basic("bob", "bob-pw"), "host,owner\nz,z\n");
    assertThat(upload.statusCode()).isEqualTo(403);
    assertThat(upload.body()).contains("MISSING_CAPABILITY").contains("edit_lookups");
    assertThat(
            http.send("DELETE", "/api/v1/lookups/owners", basic("bob", "bob-pw"), null)
                .statusCode())
        .isEqualTo(403);
    assertThat(http.send("GET", "/api/v1/lookups/owners", basic("bob", "bob-pw"), null).body())
        .isEqualTo("host,owner\na,b\n");
    // reading stays open to every user
    assertThat(count("bob", "bob-pw", "| inputlookup owners")).isEqualTo(1);

    HttpResponse<String> allowed =
        http.send(
            "POST",
            "/services/search/jobs/export",
            basic("libby", "libby-pw"),
            "output_mode=json&search=" + encode("one | table _raw | outputlookup owners"));
    assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(200);
    assertThat(http.send("GET", "/api/v1/lookups/owners", basic("admin", "admin-pw"), null).body())
        .contains("main one");
    assertThat(
            http.send("PUT", "/api/v1/lookups/mine", basic("libby", "libby-pw"), "a,b\n1,2\n")
                .statusCode())
        .isEqualTo(200);
    assertThat(
            http.send("DELETE", "/api/v1/lookups/mine", basic("libby", "libby-pw"), null)
                .statusCode())
        .isEqualTo(200);
  }

  @Test
  void aHashedPasswordLogsInWithBasicAndASessionKey() throws Exception {
    assertThat(http.send("GET", "/api/v1/indexes", basic("bob", "bob-pw"), null).statusCode())
        .isEqualTo(200);
    assertThat(http.send("GET", "/api/v1/indexes", basic("bob", "bob-pw"), null).statusCode())
        .isEqualTo(200); // the second time from the verified-password cache
    assertThat(http.send("GET", "/api/v1/indexes", basic("bob", "bob-pwx"), null).statusCode())
        .isEqualTo(401);

    HttpResponse<String> login =
        http.send(
            "POST",
            "/services/auth/login?output_mode=json",
            null,
            "username=bob&password=" + encode("bob-pw"));
    assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
    String key = JSON.readTree(login.body()).path("sessionKey").asText();
    HttpResponse<String> search =
        http.send(
            "POST",
            "/services/search/jobs/export",
            "Splunk " + key,
            "output_mode=json&search=" + encode("one"));
    assertThat(search.body()).contains("main one");
    assertThat(
            http.send("POST", "/services/auth/login", null, "username=bob&password=wrong")
                .statusCode())
        .isEqualTo(401);
    String configured = PasswordHash.hash("bob-pw");
    assertThat(
            http.send(
                    "POST",
                    "/services/auth/login",
                    null,
                    "username=bob&password=" + encode(configured))
                .statusCode())
        .as("the hash itself is not a password")
        .isEqualTo(401);
  }

  @Test
  void passwordHashesAreSaltedAndChecked() {
    String first = PasswordHash.hash("secret");
    String second = PasswordHash.hash("secret");
    assertThat(first).startsWith("pbkdf2:sha256:210000:").isNotEqualTo(second);
    assertThat(PasswordHash.parse(first).matches("secret")).isTrue();
    assertThat(PasswordHash.parse(second).matches("secret")).isTrue();
    assertThat(PasswordHash.parse(first).matches("Secret")).isFalse();
    assertThat(PasswordHash.problem("plain text")).isNull();
    assertThat(PasswordHash.problem("pbkdf2:sha256:1000:AAAAAAAAAAA=:AAAAAAAAAAAAAAAAAAAAAA=="))
        .contains("at least 210000");
    assertThat(PasswordHash.problem("pbkdf2:md5:x")).contains("not a valid PBKDF2 hash");
  }

  @Test
  void configErrorsNameTheSetting(@TempDir Path other) throws Exception {
    Path config = other.resolve("quarry.yml");
    Files.writeString(config, "auth:\n  users:\n    - {name: eve, password: x, roles: [ops]}\n");
    assertThatThrownBy(() -> ConfigLoader.load(config, Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("user 'eve' has role 'ops'")
        .hasMessageContaining("auth.roles");
    Files.writeString(
        config, "auth:\n  users:\n    - {name: eve, password: \"pbkdf2:sha256:12:x:y\"}\n");
    assertThatThrownBy(() -> ConfigLoader.load(config, Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("auth.users: the password of user 'eve'")
        .hasMessageNotContaining(":x:y");
    Files.writeString(config, "auth:\n  roles:\n    ops: {capabilities: [rule_the_world]}\n");
    assertThatThrownBy(() -> ConfigLoader.load(config, Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("auth.roles.ops.capabilities")
        .hasMessageContaining("rule_the_world");
    Files.writeString(config, "auth:\n  roles:\n    admin: {srchIndexesAllowed: [main]}\n");
    assertThatThrownBy(() -> ConfigLoader.load(config, Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("auth.roles.admin");
  }

  private static long count(String user, String password, String query) throws Exception {
    JsonNode last = exportLast(user, password, query + " | stats count");
    return last.at("/result/count").asLong();
  }

  /** The last JSON line of an export: the final result row, or the messages. */
  private static JsonNode exportLast(String user, String password, String query) throws Exception {
    return http.exportLast(basic(user, password), query);
  }
}
