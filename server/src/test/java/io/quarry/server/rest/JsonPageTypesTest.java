package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.search.SearchService;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a JSON client is promised (issue 21 §5, session 42): every page names one type per column,
 * and every value of that column on that page is one of that type — a long an integral JSON number,
 * a double any JSON number (or Splunk's {@code inf}, {@code -inf}, {@code nan}, which JSON cannot
 * spell), a string a JSON string, a boolean a JSON boolean, a timestamp its ISO-8601 text; a
 * multivalue an array of such. The searches give a column a type in the 10,000-row sample that
 * {@link StreamSchema} holds and values of another after it — streaming {@code fillnull value=0}
 * over a text field, numbers beside text, whole numbers and fractions, a whole number past 2^53 —
 * in pages of 1,024 rows and of 7, over a real server and real HTTP.
 */
class JsonPageTypesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "jsontypes-pw";
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final Set<String> NON_FINITE = Set.of("inf", "-inf", "nan");

  /** 12,000 rows n=1..12,000, in order: 2,000 of them past the sample. */
  private static final String ROWS = "| makeresults count=12000 | streamstats count AS n";

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(directory.resolve("data"), PASSWORD);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        // fillnull's number in the sample, text beside it after (the streaming fillnull case)
        ROWS + " | eval f=if(n>10500 AND n%2==0, \"x\", null()) | fillnull value=0 f | table n, f",
        // text in the sample, fillnull's number alone on later pages
        ROWS + " | eval f=if(n<=100, \"x\", null()) | fillnull value=0 f | table n, f",
        // whole numbers in the sample, numbers beside text and fractions after
        ROWS + " | eval f=case(n<=10000, 4, n%3==0, \"x\", n%3==1, 4, true(), 2.5) | table n, f",
        // fractions in the sample, whole numbers alone after
        ROWS + " | eval f=if(n<=10000, 2.5, 4) | table n, f",
        // whole numbers in the sample, fractions alone after
        ROWS + " | eval f=if(n<=10000, 4, 2.5) | table n, f",
        // a whole number past 2^53 beside fractions, and an infinity
        ROWS + " | eval f=case(n%2==0, 9007199254740993, n==9, 1e308*10, true(), 0.5) | table n, f",
        // a multivalue of a number and a text, then numbers alone
        ROWS + " | eval f=if(n<=10000, mvappend(4, \"a\"), 7) | table n, f"
      })
  void everyValueOfAPageColumnIsOfTheTypeThePageNames(String query) throws Exception {
    for (int pageSize : new int[] {SearchService.PAGE_SIZE, 7}) {
      JsonNode answer = search(query, pageSize);
      int rows = 0;
      for (JsonNode page : answer.path("pages")) {
        JsonNode fields = page.path("fields");
        for (JsonNode row : page.path("rows")) {
          rows++;
          for (int c = 0; c < fields.size(); c++) {
            String type = fields.get(c).path("type").asText();
            JsonNode value = row.get(c);
            for (JsonNode each : value.isArray() ? values(value) : List.of(value)) {
              assertThat(fits(type, each))
                  .as(
                      "%s in pages of %d: row %d column %s declared %s holds %s",
                      query, pageSize, rows, fields.get(c).path("name").asText(), type, each)
                  .isTrue();
            }
          }
        }
      }
      assertThat(rows).isEqualTo(12_000);
    }
  }

  private static boolean fits(String type, JsonNode value) {
    if (value.isNull()) {
      return true;
    }
    return switch (type) {
      case "long" -> value.isIntegralNumber();
      case "double" -> value.isNumber() || value.isTextual() && NON_FINITE.contains(value.asText());
      case "string", "timestamp" -> value.isTextual();
      case "boolean" -> value.isBoolean();
      default -> false;
    };
  }

  private static List<JsonNode> values(JsonNode array) {
    List<JsonNode> values = new ArrayList<>();
    array.forEach(values::add);
    return values;
  }

  private static JsonNode search(String query, int pageSize) throws Exception {
    System.setProperty(SearchService.PAGE_SIZE_PROPERTY, Integer.toString(pageSize));
    try {
      HttpResponse<String> response =
          HTTP.send(
              HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/search"))
                  .header("Authorization", TestServers.basic(PASSWORD))
                  .header("Accept", "application/json")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          JSON.writeValueAsString(Map.of("query", query, "compression", "none"))))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      return JSON.readTree(response.body());
    } finally {
      System.clearProperty(SearchService.PAGE_SIZE_PROPERTY);
    }
  }
}
