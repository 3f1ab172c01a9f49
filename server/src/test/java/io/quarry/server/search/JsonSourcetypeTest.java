package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestHttp;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built-in sourcetype {@code _json} is read {@code kvMode: json}: a search reads the JSON
 * object's own fields (a nested one by its path, {@code geo.city}; an array's values as a
 * multivalue, {@code tags{}}) and never a {@code key=value} pair written inside one of its string
 * values ({@code "msg": "user=bob role=admin"} gives no {@code user} and no {@code role}) — on
 * every path a search reads fields by (the search's filter, {@code where}, {@code table}, {@code
 * stats by}, {@code /api/v1/fields}), in both layouts, the event sent as raw text and as a HEC
 * event. Before, {@code _json} had no {@code kvMode} and was read {@code auto}: the pairs were
 * fields. Expected by hand.
 */
class JsonSourcetypeTest {
  private static final String PASSWORD = "json-sourcetype-pw";
  private static final String TOKEN = "json-sourcetype-token";
  private static final String ADMIN = TestHttp.basic("admin", PASSWORD);
  private static final String EVENT =
      "{\"id\": 1, \"msg\": \"user=bob role=admin\", \"geo\": {\"city\": \"Oslo\"},"
          + " \"tags\": [\"x\", \"y\"]}";

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;
  private static TestHttp http;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.startLayouts(root.resolve("data"), PASSWORD, TOKEN, Map.of());
    http = new TestHttp(server.url());
    for (String index : List.of("ev", "bl")) {
      HttpResponse<String> raw = TestServers.postRaw(server, TOKEN, "_json", index, EVENT + "\n");
      assertThat(raw.statusCode()).as(raw.body()).isEqualTo(200);
      TestServers.postEvents(
          server,
          TOKEN,
          "{\"index\": \""
              + index
              + "\", \"sourcetype\": \"_json\", \"event\": "
              + EVENT.replace("\"id\": 1", "\"id\": 2")
              + "}");
    }
  }

  @Test
  void theObjectsFieldsAreFieldsAndThePairsInsideItsTextAreNot() throws Exception {
    for (String index : List.of("ev", "bl")) {
      ArrayNode rows =
          http.export(
              ADMIN,
              "index="
                  + index
                  + " sourcetype=_json | sort id | table id, msg, geo.city, tags{}, user, role");
      assertThat(rows).as(index).hasSize(2);
      for (int i = 0; i < 2; i++) {
        JsonNode row = rows.get(i);
        assertThat(row.path("id").asText()).as(index).isEqualTo(String.valueOf(i + 1));
        assertThat(row.path("msg").asText()).as(index).isEqualTo("user=bob role=admin");
        assertThat(row.path("geo.city").asText()).as(index).isEqualTo("Oslo");
        assertThat(texts(row.path("tags{}"))).as(index).containsExactly("x", "y");
        assertThat(row.has("user")).as(index + " user: " + row).isFalse();
        assertThat(row.has("role")).as(index + " role: " + row).isFalse();
      }
    }
  }

  @Test
  void noPathFindsAPairInsideAString() throws Exception {
    for (String index : List.of("ev", "bl")) {
      String events = "index=" + index + " sourcetype=_json";
      assertThat(http.export(ADMIN, events + " user=bob | table id")).as(index).isEmpty();
      assertThat(http.export(ADMIN, events + " | where role=\"admin\" | table id"))
          .as(index)
          .isEmpty();
      assertThat(http.export(ADMIN, events + " | stats count by user")).as(index).isEmpty();
      assertThat(fieldNames(events)).as(index).doesNotContain("user", "role");
      // the object's own fields, found by the same paths
      assertThat(http.export(ADMIN, events + " geo.city=Oslo | table id")).as(index).hasSize(2);
      assertThat(http.export(ADMIN, events + " tags{}=y | table id")).as(index).hasSize(2);
      assertThat(fieldNames(events)).as(index).contains("id", "msg", "geo.city", "tags{}");
    }
  }

  private static List<String> texts(JsonNode value) {
    List<String> texts = new ArrayList<>();
    if (value.isArray()) {
      value.forEach(v -> texts.add(v.asText()));
    } else if (!value.isMissingNode()) {
      texts.add(value.asText());
    }
    return texts;
  }

  /** The fields {@code /api/v1/fields} names over {@code events}. */
  private static List<String> fieldNames(String events) throws Exception {
    HttpResponse<String> answer =
        http.send(
            "POST",
            "/api/v1/fields",
            ADMIN,
            "{\"query\": \"" + events + "\", \"maxEvents\": 1000, \"maxValues\": 10}");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    List<String> names = new ArrayList<>();
    for (JsonNode summary : TestHttp.json(answer.body()).path("fields")) {
      names.add(summary.path("name").asText());
    }
    return names;
  }
}
