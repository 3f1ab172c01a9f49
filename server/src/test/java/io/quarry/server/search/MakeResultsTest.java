package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.RunningServer;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code | makeresults}: rows without data, for trying expressions and pipelines. */
class MakeResultsTest {
  private static final String PASSWORD = "pw";

  @RegisterExtension static final RunningServer SERVER = new RunningServer(PASSWORD);

  /** The result objects of an export answer. */
  private static List<JsonNode> results(String query) throws Exception {
    return TestServers.exportRows(SERVER.server(), PASSWORD, query);
  }

  @Test
  void oneRowWithTheSearchTimeByDefault() throws Exception {
    Instant before = Instant.now().minusSeconds(1);
    List<JsonNode> rows = results("| makeresults");
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).size()).isEqualTo(1);
    Instant time = Instant.parse(rows.get(0).get("_time").asText());
    assertThat(time).isBetween(before, Instant.now().plusSeconds(1));
  }

  @Test
  void countRowsFeedTheRestOfThePipeline() throws Exception {
    assertThat(results("| makeresults count=5 | eval x=2 | stats count, sum(x) AS total"))
        .singleElement()
        .satisfies(
            row -> {
              assertThat(row.get("count").asText()).isEqualTo("5");
              assertThat(row.get("total").asText()).isEqualTo("10");
            });
    assertThat(results("| makeresults count=1000 | head 3")).hasSize(3);
    assertThat(results("| makeresults | eval n=len(\"abcd\"), up=upper(\"q\") | table n, up"))
        .singleElement()
        .satisfies(row -> assertThat(row.toString()).isEqualTo("{\"n\":\"4\",\"up\":\"Q\"}"));
  }

  @Test
  void annotateAddsSplunksDefaultFields() throws Exception {
    JsonNode row = results("| makeresults annotate=true").get(0);
    assertThat(row.has("_time")).isTrue();
    assertThat(row.get("splunk_server").asText()).isEqualTo("quarry");
  }

  @Test
  void badArgumentsAndPlacesArePositionedErrors() throws Exception {
    for (String query :
        List.of(
            "| makeresults count=0",
            "| makeresults count=abc",
            "| makeresults rows=3",
            "| makeresults count=2 extra",
            "index=main | makeresults")) {
      HttpResponse<String> response = TestServers.export(SERVER.server(), PASSWORD, query);
      assertThat(response.statusCode()).as(query).isEqualTo(400);
      assertThat(response.body()).as(query).contains("QUERY_PARSE");
    }
    assertThat(results("| help makeresults").toString()).contains("makeresults");
  }
}
