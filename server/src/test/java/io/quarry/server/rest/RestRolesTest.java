package io.quarry.server.rest;

import static io.quarry.server.TestHttp.basic;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
 * Roles defined over Splunk's {@code authorization/roles}: created, changed and deleted with
 * Splunk's field names, in effect for their users at once (sessions kept), imported roles adding
 * their indexes, kept in an owner-only file across a restart; changes need {@code edit_roles}
 * (users {@code edit_user}), nobody hands out more than they hold, built-in and configured roles
 * stay read-only, a role in use is not deleted, and every change and refusal is audited.
 */
class RestRolesTest {
  private static final String ROLES = "/services/authorization/roles";
  private static final String USERS = "/services/authentication/users";
  private static final String ADMIN = "admin:admin-pw";

  @TempDir Path directory;
  @AutoClose private QuarryServer server;

  private static final TestConfig CONFIG =
      TestConfig.yaml("indexes: [main, web]")
          .user("pat")
          .user("uma", "useradmin")
          .role("useradmin", "{srchIndexesAllowed: [main], capabilities: [edit_user, edit_roles]}")
          .hecIndexes("main", "web");

  @BeforeEach
  void start() throws Exception {
    restart();
    for (String index : new String[] {"main", "web"}) {
      HttpResponse<String> loaded =
          http()
              .send(
                  "POST",
                  "/services/collector/raw?sourcetype=app&index=" + index,
                  "Splunk tok",
                  "2026-01-07T10:00:00Z in=" + index + "\n");
      assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
    }
  }

  private void restart() throws Exception {
    server = CONFIG.restart(server, directory);
  }

  @Test
  void aRoleDefinedOverRestTakesEffectAtOnceAndSurvivesARestart() throws Exception {
    HttpResponse<String> created =
        post(
            ADMIN,
            ROLES,
            "name=weblike&srchIndexesAllowed=web&srchIndexesDefault=web&srchJobsQuota=2"
                + "&srchMaxTime=10m&output_mode=json");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    JsonNode content = TestHttp.json(created.body()).path("entry").get(0).path("content");
    assertThat(content.path("srchIndexesAllowed").toString()).isEqualTo("[\"web\"]");
    assertThat(content.path("srchJobsQuota").asInt()).isEqualTo(2);
    assertThat(content.path("srchMaxTime").asText()).isEqualTo("10m");
    assertThat(post(ADMIN, ROLES, "name=weblike").statusCode()).isEqualTo(409);
    assertThat(post(ADMIN, USERS, "name=wes&password=wes-password-1&roles=weblike").statusCode())
        .isEqualTo(201);
    String wes = TestHttp.basic("wes", "wes-password-1");
    assertThat(http().export(wes, "in=*").toString()).contains("in=web").doesNotContain("in=main");
    // a session key from before the change keeps working and gets the new indexes
    String session = login("wes", "wes-password-1");
    HttpResponse<String> changed =
        post(ADMIN, ROLES + "/weblike", "srchIndexesAllowed=main&srchIndexesDefault=main");
    assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
    assertThat(http().export("Splunk " + session, "in=*").toString())
        .contains("in=main")
        .doesNotContain("in=web");
    // the quota was kept (fields not sent are not changed)
    assertThat(get(ADMIN, ROLES + "/weblike?output_mode=json").body())
        .contains("\"srchJobsQuota\":2");

    // bad settings are 400s naming the setting; built-in and configured roles are read-only
    assertThat(post(ADMIN, ROLES, "name=bad&capabilities=fly").body())
        .contains("unknown capability 'fly'");
    assertThat(post(ADMIN, ROLES, "name=bad&srchIndexesAllowed=../x").statusCode()).isEqualTo(400);
    assertThat(post(ADMIN, ROLES, "name=bad&imported_roles=nosuch").body())
        .contains("no role 'nosuch'");
    assertThat(post(ADMIN, ROLES, "name=../bad").statusCode()).isEqualTo(400);
    assertThat(post(ADMIN, ROLES + "/user", "srchIndexesAllowed=_*").statusCode()).isEqualTo(403);
    assertThat(post(ADMIN, ROLES + "/useradmin", "capabilities=").statusCode()).isEqualTo(403);
    assertThat(delete(ADMIN, ROLES + "/admin").statusCode()).isEqualTo(403);

    // the file: owner-only, Splunk's field names, survives a restart
    Path file = directory.resolve("data/roles.json");
    assertThat(Files.readString(file)).contains("\"weblike\"").contains("srchIndexesAllowed");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    restart();
    assertThat(http().export(wes, "in=*").toString()).contains("in=main");

    // in use: not deleted
    HttpResponse<String> inUse = delete(ADMIN, ROLES + "/weblike");
    assertThat(inUse.statusCode()).as(inUse.body()).isEqualTo(409);
    assertThat(inUse.body()).contains("ROLE_IN_USE").contains("wes");
    assertThat(delete(ADMIN, USERS + "/wes").statusCode()).isEqualTo(200);
    assertThat(delete(ADMIN, ROLES + "/weblike").statusCode()).isEqualTo(200);
    assertThat(get(ADMIN, ROLES + "/weblike").statusCode()).isEqualTo(404);
    assertThat(delete(ADMIN, ROLES + "/weblike").statusCode()).isEqualTo(404);
  }

  @Test
  void importedRolesAddTheirIndexesAndCapabilities() throws Exception {
    assertThat(post(ADMIN, ROLES, "name=webreader&srchIndexesAllowed=web").statusCode())
        .isEqualTo(201);
    // no index of its own, but it imports webreader's
    HttpResponse<String> derived =
        post(
            ADMIN,
            ROLES,
            "name=derived&srchIndexesAllowed=&srchIndexesDefault=web&imported_roles=webreader"
                + "&capabilities=edit_lookups&output_mode=json");
    assertThat(derived.statusCode()).as(derived.body()).isEqualTo(201);
    assertThat(derived.body()).contains("\"imported_roles\":[\"webreader\"]");
    assertThat(post(ADMIN, USERS, "name=dee&password=dee-password-1&roles=derived").statusCode())
        .isEqualTo(201);
    String dee = TestHttp.basic("dee", "dee-password-1");
    assertThat(http().export(dee, "in=*").toString()).contains("in=web");
    HttpResponse<String> lookup = http().send("PUT", "/api/v1/lookups/dee.csv", dee, "a,b\n1,2\n");
    assertThat(lookup.statusCode()).as(lookup.body()).isIn(200, 201);
    // an imported role is in use too
    assertThat(delete(ADMIN, ROLES + "/webreader").body()).contains("derived");
  }

  @Test
  void editingNeedsItsCapabilityAndNobodyHandsOutMoreThanTheyHold() throws Exception {
    HttpResponse<String> plain = post("pat:pat-pw", ROLES, "name=mine");
    assertThat(plain.statusCode()).isEqualTo(403);
    assertThat(plain.body()).contains("MISSING_CAPABILITY").contains("edit_roles");
    assertThat(post("pat:pat-pw", USERS, "name=x1&password=x-password-1").body())
        .contains("edit_user");
    assertThat(delete("pat:pat-pw", USERS + "/uma").statusCode()).isEqualTo(403);

    String uma = "uma:uma-pw";
    // uma may read main and edit users and roles: no more
    for (String escalation :
        new String[] {
          "name=r1&srchIndexesAllowed=_*",
          "name=r1&srchIndexesAllowed=*",
          "name=r1&srchIndexesAllowed=web",
          "name=r1&srchIndexesAllowed=main&capabilities=admin_all_objects",
          "name=r1&srchIndexesAllowed=main&imported_roles=admin",
        }) {
      HttpResponse<String> refused = post(uma, ROLES, escalation);
      assertThat(refused.statusCode()).as(escalation + ": " + refused.body()).isEqualTo(403);
      assertThat(refused.body()).contains("PRIVILEGE_ESCALATION");
    }
    assertThat(post(uma, ROLES, "name=mainonly&srchIndexesAllowed=main").statusCode())
        .isEqualTo(201);
    // the user role reads every index: uma cannot give it, nor admin
    assertThat(post(uma, USERS, "name=ned&password=ned-password-1").body())
        .contains("PRIVILEGE_ESCALATION");
    assertThat(post(uma, USERS, "name=ned&password=ned-password-1&roles=admin").statusCode())
        .isEqualTo(403);
    assertThat(post(uma, USERS, "name=ned&password=ned-password-1&roles=mainonly").statusCode())
        .isEqualTo(201);
    // nor take over a stronger user, nor strengthen her own role
    assertThat(post(ADMIN, USERS, "name=boss&password=boss-password-1&roles=admin").statusCode())
        .isEqualTo(201);
    assertThat(post(uma, USERS + "/boss", "password=taken-over-1").statusCode()).isEqualTo(403);
    assertThat(delete(uma, USERS + "/boss").statusCode()).isEqualTo(403);
    assertThat(post(uma, ROLES + "/useradmin", "srchIndexesAllowed=*").statusCode()).isEqualTo(403);
    assertThat(
            http().export(TestHttp.basic("boss", "boss-password-1"), "index=main | head 1").size())
        .isEqualTo(1);
    // what she may: change the user she made, and delete both
    assertThat(post(uma, USERS + "/ned", "password=ned-password-2").statusCode()).isEqualTo(200);
    assertThat(delete(uma, USERS + "/ned").statusCode()).isEqualTo(200);
    assertThat(delete(uma, ROLES + "/mainonly").statusCode()).isEqualTo(200);

    // every change and refusal is in _audit
    String admin = TestHttp.basic("admin", "admin-pw");
    http()
        .awaitRows(
            admin,
            "audited",
            "index=_audit user=uma action=\"role created\" info=denied",
            "index=_audit user=uma action=\"role deleted\" info=succeeded");
    assertThat(
            http()
                .export(admin, "index=_audit user=uma action=\"role created\" info=succeeded")
                .toString())
        .contains("mainonly");
    assertThat(http().export(admin, "index=_audit user=pat info=denied").toString())
        .contains("edit_roles")
        .contains("edit_user");
    assertThat(
            http()
                .export(admin, "index=_audit user=uma action=\"user changed\" info=denied")
                .toString())
        .contains("boss");
  }

  private String login(String user, String password) throws Exception {
    HttpResponse<String> answer =
        http()
            .send(
                "POST",
                "/services/auth/login",
                null,
                "output_mode=json&username=" + user + "&password=" + password);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return TestHttp.json(answer.body()).path("sessionKey").asText();
  }

  private HttpResponse<String> post(String credentials, String path, String form) throws Exception {
    // JSON answers, errors with their code
    return http()
        .send(
            "POST",
            path,
            basic(credentials),
            form.contains("output_mode=") ? form : form + "&output_mode=json");
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
