package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review b41 (coltype): a column the engine holds as doubles must not lose its fractions in Arrow
 * because the sample's doubles happened to be whole. StreamSchema types a double block of whole
 * numbers as a long (coltype's valueType), so the Arrow schema becomes Int(64) and every fraction
 * after the 10,000-row sample is sent as null. On main the same column is Float8 and nothing is
 * lost.
 */
class ReviewB41ColumnTypeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "review-pw";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(directory.resolve("data"), PASSWORD);
  }

  @Test
  void aDoubleColumnWholeInTheSampleKeepsItsLaterFractionsInArrow() throws Exception {
    // x is a double everywhere (4.0 is a double literal); whole for the first 20,000 rows
    String query =
        "| makeresults count=20010 | streamstats count AS n"
            + " | eval x=if(n<=20000, 4.0, 3.5) | table n, x";
    List<Object> xs = arrowColumn(search(query), "x");
    assertThat(xs).hasSize(20010);
    List<Object> last = xs.subList(20000, 20010);
    assertThat(last).as("x of rows 20001..20010 in Arrow").doesNotContainNull();
    assertThat(last).allSatisfy(v -> assertThat(((Number) v).doubleValue()).isEqualTo(3.5));
  }

  /**
   * The everyday shape of the same loss: {@code stats avg(v) by k} over many groups, where the
   * groups met first have whole averages (one event each, or an even split) and later ones do not.
   */
  @Test
  void anAverageByManyGroupsKeepsItsFractionsInArrow() throws Exception {
    String query =
        "| makeresults count=20010 | streamstats count AS n"
            + " | eval v=if(n<=20000, n, n+0.5) | stats avg(v) AS a by n";
    List<Object> as = arrowColumn(search(query), "a");
    assertThat(as).hasSize(20010);
    assertThat(as.subList(20000, 20010)).as("avg of groups 20001..20010").doesNotContainNull();
  }

  private static byte[] search(String query) throws Exception {
    HttpResponse<byte[]> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/search"))
                .header("Authorization", TestServers.basic(PASSWORD))
                .header("Accept", "application/vnd.apache.arrow.stream")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        JSON.writeValueAsString(Map.of("query", query, "compression", "none"))))
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  private static List<Object> arrowColumn(byte[] stream, String name) throws Exception {
    List<Object> values = new ArrayList<>();
    try (RootAllocator allocator = new RootAllocator();
        ArrowStreamReader reader =
            new ArrowStreamReader(new ByteArrayInputStream(stream), allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      while (reader.loadNextBatch()) {
        FieldVector vector = root.getVector(name);
        for (int row = 0; row < root.getRowCount(); row++) {
          values.add(vector.getObject(row));
        }
      }
    }
    return values;
  }
}
