package io.quarry.server.rest;

import static io.quarry.server.TestHttp.basic;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestConfig;
import io.quarry.server.TestHttp;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Splunk's {@code receivers/simple} and {@code data/indexes} beyond what the real SDK shows ({@code
 * SplunkSdkTest}): the {@code edit_tcp} capability, internal indexes, a body that is not a form,
 * and indexes a user may not search.
 */
class SplunkReceiverTest {

  @TempDir Path directory;
  private QuarryServer server;

  @BeforeEach
  void start() throws Exception {
    server =
        TestConfig.yaml("indexes: [main, web]")
            .user("bob")
            .user("sam", "senders")
            .role(
                "senders",
                "{srchIndexesAllowed: [web], srchIndexesDefault: [web], capabilities: [edit_tcp]}")
            .start(directory);
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  @Test
  void sendingNeedsEditTcpAndAnIndexThatTakesEvents() throws Exception {
    String path = "/services/receivers/simple?output_mode=json&index=web&sourcetype=app";
    assertThat(post("bob:bob-pw", path, "one").statusCode()).isEqualTo(403);
    HttpResponse<String> sent =
        post("sam:sam-pw", path, "2026-01-01 00:00:01 a=%zz&b=1\n2026-01-01 00:00:02 second\n");
    assertThat(sent.statusCode()).as(sent.body()).isEqualTo(200);
    assertThat(sent.body()).contains("\"index\":\"web\"", "\"sourcetype\":\"app\"");
    assertThat(
            TestServers.export(server, "admin-pw", "index=web sourcetype=app | stats count").body())
        .as("a body with a stray % is text, not a malformed form")
        .contains("\"count\":\"2\"");
    HttpResponse<String> blank = post("sam:sam-pw", path, " \t\r\n\n");
    assertThat(blank.statusCode()).as(blank.body()).isEqualTo(400);
    assertThat(blank.body()).contains("NO_DATA");
    HttpResponse<String> accented = post("sam:sam-pw", path, "2026-01-01 00:00:03 café\n");
    assertThat(accented.statusCode()).as(accented.body()).isEqualTo(200);
    assertThat(accented.body()).as("the body's bytes").contains("\"bytes\":26");
    HttpResponse<String> internal =
        post("admin:admin-pw", "/services/receivers/simple?index=_internal", "x");
    assertThat(internal.statusCode()).isEqualTo(400);
    assertThat(internal.body()).contains("takes no events");
  }

  @Test
  void indexesListOnlyWhatTheUserMaySearch() throws Exception {
    HttpResponse<String> listed = get("sam:sam-pw", "/services/data/indexes?output_mode=json");
    assertThat(listed.body()).contains("\"name\":\"web\"").doesNotContain("\"name\":\"main\"");
    assertThat(get("sam:sam-pw", "/services/data/indexes/main").statusCode()).isEqualTo(404);
    assertThat(get("admin:admin-pw", "/servicesNS/nobody/search/data/indexes/main").statusCode())
        .isEqualTo(200);
  }

  private HttpResponse<String> post(String credentials, String path, String body) throws Exception {
    return new TestHttp(server.url()).send("POST", path, basic(credentials), body);
  }

  private HttpResponse<String> get(String credentials, String path) throws Exception {
    return new TestHttp(server.url()).send("GET", path, basic(credentials), null);
  }
}
