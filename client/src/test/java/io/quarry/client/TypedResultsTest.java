package io.quarry.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TypedResultsTest {
  private static TypedResults page(String json) throws Exception {
    JsonNode node = new ObjectMapper().readTree(json);
    return TypedResults.fromJson(node, 0, 1, false);
  }

  @Test
  void aDoubleColumnReadsTheServersTextsForInfinitiesAndNanAsDoubles() throws Exception {
    TypedResults page =
        page(
            """
            {"fields": [{"name": "x", "type": "double"}, {"name": "s", "type": "string"}],
             "rows": [["inf", "inf"], ["-inf", "nan"], ["nan", "x"], [2.5, "2.5"],
                      [["inf", 1.5], null]]}
            """);
    assertThat(page.rows())
        .containsExactly(
            List.of(Double.POSITIVE_INFINITY, "inf"),
            List.of(Double.NEGATIVE_INFINITY, "nan"),
            List.of(Double.NaN, "x"),
            List.of(2.5, "2.5"),
            Arrays.asList(List.of(Double.POSITIVE_INFINITY, 1.5), null));
  }

  @Test
  void otherTextInADoubleColumnStaysText() throws Exception {
    TypedResults page =
        page("{\"fields\": [{\"name\": \"x\", \"type\": \"double\"}], \"rows\": [[\"Infinity\"]]}");
    assertThat(page.rows()).containsExactly(List.of("Infinity"));
  }
}
