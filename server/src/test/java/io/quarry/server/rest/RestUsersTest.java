package io.quarry.server.rest;

import static io.quarry.server.TestHttp.basic;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestConfig;
import io.quarry.server.TestHttp;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Users defined over Splunk's {@code authentication/users} beyond what the real SDK shows ({@code
 * SplunkSdkTest}): roles from the configuration apply to them, the configuration's users stay
 * read-only, the password is kept only as a hash in an owner-only file, and they survive a restart.
 */
class RestUsersTest {
  private static final String USERS = "/services/authentication/users";

  @TempDir Path directory;
  @AutoClose private QuarryServer server;

  private static final TestConfig CONFIG =
      TestConfig.yaml("indexes: [main, web]")
          .user("bob")
          .role("webonly", "{srchIndexesAllowed: [web], srchIndexesDefault: [web]}");

  @BeforeEach
  void start() throws Exception {
    restart();
  }

  private void restart() throws Exception {
    server = CONFIG.restart(server, directory);
  }

  @Test
  void usersDefinedOverRestHaveTheirRolesAndSurviveARestart() throws Exception {
    HttpResponse<String> created =
        post("admin:admin-pw", USERS, "name=wes&password=wes-password-1&roles=webonly");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(created.body()).contains("\"roles\":[\"webonly\"]");
    assertThat(post("admin:admin-pw", USERS, "name=wes&password=x").statusCode()).isEqualTo(409);
    assertThat(post("admin:admin-pw", USERS, "name=eve&password=eve-pw-1&roles=nosuch").body())
        .contains("role 'nosuch'");
    assertThat(post("bob:bob-pw", USERS, "name=eve&password=eve-pw-1").statusCode()).isEqualTo(403);
    HttpResponse<String> configured = post("admin:admin-pw", USERS + "/bob", "password=other");
    assertThat(configured.statusCode()).isEqualTo(403);
    assertThat(configured.body()).contains("defined in the configuration");

    Path file = directory.resolve("data/users.json");
    String stored = Files.readString(file);
    assertThat(stored).contains("pbkdf2:").doesNotContain("wes-password-1");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");

    restart();
    HttpResponse<String> search = get("wes:wes-password-1", "/api/v1/indexes");
    assertThat(search.statusCode()).as("wes logs in after a restart").isEqualTo(200);
    assertThat(search.body()).contains("\"name\":\"web\"").doesNotContain("\"name\":\"main\"");
    assertThat(delete("admin:admin-pw", USERS + "/wes").statusCode()).isEqualTo(200);
    assertThat(get("wes:wes-password-1", "/api/v1/indexes").statusCode()).isEqualTo(401);
    assertThat(delete("admin:admin-pw", USERS + "/bob").statusCode()).isEqualTo(403);
  }

  private HttpResponse<String> post(String credentials, String path, String form) throws Exception {
    return http().send("POST", path + "?output_mode=json", basic(credentials), form);
  }

  private HttpResponse<String> get(String credentials, String path) throws Exception {
    return http().send("GET", path, basic(credentials), null);
  }

  private HttpResponse<String> delete(String credentials, String path) throws Exception {
    return http().send("DELETE", path + "?output_mode=json", basic(credentials), null);
  }

  private TestHttp http() {
    return new TestHttp(server.url());
  }
}
