package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Splunk's own Python SDK ({@code splunk-sdk} 2.1.0 from PyPI, installed into a venv under {@code
 * target/} by {@link PythonVenv}) logs in, searches (oneshot, a polled job, export) and meets a bad
 * password and a bad query, against a real Quarry.
 */
class SplunkSdkTest {

  @TempDir Path dataDirectory;
  private QuarryServer server;

  @BeforeEach
  void start() throws Exception {
    server = TestServers.start(dataDirectory, "sdk-pw");
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 300; i++) {
      lines.append("2026-01-01 00:00:00 id=").append(i).append(" status=");
      lines.append(i % 3 == 0 ? "500" : "200").append('\n');
    }
    TestServers.loadRaw(server, lines.toString());
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  @Test
  void splunksPythonSdkSearchesQuarry() throws Exception {
    JsonNode seen = PythonVenv.splunkSdk("/splunk-sdk/check.py", server.port(), "sdk-pw");

    assertThat(seen.get("version").asText()).isEqualTo(SplunkServerRoutes.SPLUNK_API_VERSION);
    assertThat(seen.get("oneshot").toString())
        .isEqualTo(
            "[{\"count\":\"200\",\"status\":\"200\"},{\"count\":\"100\",\"status\":\"500\"}]");
    assertThat(seen.get("job").toString()).isEqualTo("[{\"count\":\"100\"}]");
    assertThat(seen.get("jobXml").toString()).isEqualTo("[{\"count\":\"100\"}]");
    assertThat(seen.get("resultCount").asInt()).isEqualTo(1);
    assertThat(seen.get("dispatchState").asText()).isEqualTo("DONE");
    assertThat(seen.get("listed").asBoolean()).isTrue();
    assertThat(seen.get("export").toString()).isEqualTo("[{\"count\":\"300\"}]");
    assertThat(seen.get("badPassword").asText()).isEqualTo("AuthenticationError");
    assertThat(seen.get("badQuery").asInt()).isEqualTo(400);
  }

  @Test
  void splunksPythonSdkManagesMacrosAndSavedSearches() throws Exception {
    JsonNode seen = PythonVenv.splunkSdk("/splunk-sdk/knowledge.py", server.port(), "sdk-pw");

    assertThat(seen.get("macroCreated").asText()).isEqualTo("errors_only");
    assertThat(seen.get("macroArgs").asText()).isEqualTo("f");
    assertThat(seen.get("macroNames").toString()).isEqualTo("[\"by_field(1)\",\"errors_only\"]");
    assertThat(seen.get("macroSearch").toString())
        .isEqualTo("[{\"count\":\"100\",\"status\":\"500\"}]");
    assertThat(seen.get("macroUpdated").asText()).isEqualTo("status=200");
    assertThat(seen.get("macroDeleted").asBoolean()).isTrue();
    assertThat(seen.get("subsearch").toString()).isEqualTo("[{\"count\":\"100\"}]");

    assertThat(seen.get("savedName").asText()).isEqualTo("errors");
    assertThat(seen.get("savedSearch").asText())
        .isEqualTo("search index=main status=500 | stats count");
    assertThat(seen.get("savedListed").asBoolean()).isTrue();
    assertThat(seen.get("dispatched").toString()).isEqualTo("[{\"count\":\"100\"}]");
    assertThat(seen.get("history").asBoolean()).isTrue();
    assertThat(seen.get("savedUpdated").asText())
        .isEqualTo("search index=main status=200 | stats count");
    assertThat(seen.get("savedsearchCommand").toString()).isEqualTo("[{\"count\":\"200\"}]");
    assertThat(seen.get("duplicate").asInt()).isEqualTo(409);
    assertThat(seen.get("missing").asText()).isEqualTo("KeyError");
    assertThat(seen.get("savedDeleted").asBoolean()).isTrue();
  }

  @Test
  void splunksPythonSdkListsIndexesAndSubmitsEvents() throws Exception {
    JsonNode seen = PythonVenv.splunkSdk("/splunk-sdk/indexes.py", server.port(), "sdk-pw");

    assertThat(seen.get("indexNames").toString())
        .as("admin's readable indexes, internal ones included")
        .contains("\"_internal\"", "\"main\"");
    assertThat(seen.get("datatype").asText()).isEqualTo("event");
    assertThat(seen.get("submitted").toString())
        .isEqualTo(
            "[{\"host\":\"sdk-host\",\"source\":\"http-simple\",\"sourcetype\":\"sdk\","
                + "\"status\":\"404\"}]");
    assertThat(seen.get("added").asInt()).isEqualTo(1);
    assertThat(seen.get("missing").asText()).isEqualTo("KeyError");
    assertThat(seen.get("create").asInt()).isEqualTo(400);
  }

  @Test
  void splunksPythonSdkManagesUsers() throws Exception {
    JsonNode seen = PythonVenv.splunkSdk("/splunk-sdk/users.py", server.port(), "sdk-pw");

    assertThat(seen.get("created").asText()).as("the SDK lower-cases names").isEqualTo("carol");
    assertThat(seen.get("roles").toString()).isEqualTo("[\"user\"]");
    assertThat(seen.get("userNames").toString()).isEqualTo("[\"admin\",\"carol\"]");
    assertThat(seen.get("roleNames").toString()).isEqualTo("[\"admin\",\"user\"]");
    assertThat(seen.get("carolSearch").toString()).isEqualTo("[{\"count\":\"300\"}]");
    assertThat(seen.get("carolSees").toString()).isEqualTo("[\"carol\"]");
    assertThat(seen.get("carolCreates").asInt()).isEqualTo(403);
    assertThat(seen.get("oldPassword").asBoolean()).isFalse();
    assertThat(seen.get("newPassword").asBoolean()).isTrue();
    assertThat(seen.get("deleted").asBoolean()).isTrue();
    assertThat(seen.get("afterDelete").asBoolean()).isFalse();
    // roles over authorization/roles
    assertThat(seen.get("roleCreated").asText()).isEqualTo("ops");
    assertThat(seen.get("roleIndexes").toString()).isEqualTo("[\"main\"]");
    assertThat(seen.get("roleImports").toString()).isEqualTo("[\"user\"]");
    assertThat(seen.get("roleCapabilities").toString()).isEqualTo("[\"edit_lookups\"]");
    assertThat(seen.get("erinSearch").toString()).isEqualTo("[{\"count\":\"300\"}]");
    assertThat(seen.get("deleteInUse").asInt()).isEqualTo(409);
    assertThat(seen.get("roleDeleted").asBoolean()).isTrue();
  }
}
