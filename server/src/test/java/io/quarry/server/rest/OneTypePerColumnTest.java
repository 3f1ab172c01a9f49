package io.quarry.server.rest;

import static io.quarry.server.rest.TestPages.doubles;
import static io.quarry.server.rest.TestPages.longs;
import static io.quarry.server.rest.TestPages.page;
import static io.quarry.server.rest.TestPages.strings;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.plugin.api.data.Page;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A result column has one type in JSON and NDJSON whatever pages it comes in ({@link
 * ResultEncoder}): long and double pages of a column go out as doubles, a column with text on some
 * page as text on every page, a page of nulls takes its column's type; a column null throughout the
 * sample keeps each page's own type.
 */
class OneTypePerColumnTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void jsonPagesShareEachColumnsType() throws Exception {
    JsonNode body =
        JSON.readTree(
            encode(
                ResultEncoder.Format.JSON,
                page("n", longs(1, 2), "x", longs(7, 9), "empty", strings(null, null)),
                page("n", doubles(2.5), "x", strings("a"), "empty", strings((String) null)),
                page("n", strings((String) null), "x", longs(8), "empty", strings((String) null))));
    JsonNode pages = body.path("pages");
    assertThat(pages).hasSize(3);
    for (JsonNode page : pages) {
      assertThat(type(page, "n")).isEqualTo("double");
      assertThat(type(page, "x")).isEqualTo("string");
    }
    // the values in that type: a long as a double, a number as its text
    assertThat(pages.get(0).path("rows").get(0).get(0).isDouble()).isTrue();
    assertThat(pages.get(0).path("rows").get(0).get(0).asDouble()).isEqualTo(1.0);
    assertThat(pages.get(0).path("rows").get(0).get(1).asText()).isEqualTo("7");
    assertThat(pages.get(0).path("rows").get(0).get(1).isTextual()).isTrue();
    assertThat(pages.get(2).path("rows").get(0).get(1).asText()).isEqualTo("8");
    assertThat(pages.get(2).path("rows").get(0).get(0).isNull()).isTrue();
  }

  @Test
  void aColumnOfNullsInTheSampleKeepsItsPagesTypes() throws Exception {
    JsonNode body =
        JSON.readTree(
            encode(
                ResultEncoder.Format.JSON,
                page("late", strings((String) null)),
                page("late", longs(4))));
    assertThat(type(body.path("pages").get(1), "late")).isEqualTo("long");
    assertThat(body.path("pages").get(1).path("rows").get(0).get(0).isIntegralNumber()).isTrue();
  }

  @Test
  void ndjsonValuesShareEachColumnsType() throws Exception {
    String lines =
        encode(ResultEncoder.Format.NDJSON, page("n", longs(3)), page("n", doubles(0.5)));
    List<JsonNode> rows = new ArrayList<>();
    for (String line : lines.split("\n")) {
      rows.add(JSON.readTree(line));
    }
    assertThat(rows).hasSize(2);
    assertThat(rows.get(0).path("n").isDouble()).isTrue();
    assertThat(rows.get(0).path("n").asDouble()).isEqualTo(3.0);
  }

  @Test
  void aDoubleBlockOfWholeNumbersIsALongColumn() throws Exception {
    // issue 21: 4 shared an engine page with a fraction that a later command dropped
    String lines = encode(ResultEncoder.Format.NDJSON, page("x", doubles(4.0, -0.0)));
    assertThat(lines).isEqualTo("{\"x\":4}\n{\"x\":0}\n");
    JsonNode body = JSON.readTree(encode(ResultEncoder.Format.JSON, page("x", doubles(4.0))));
    assertThat(type(body.path("pages").get(0), "x")).isEqualTo("long");
  }

  @Test
  void pastTheSampleAValueIsWrittenTheSameWherePagesPart() throws Exception {
    // a sample of whole numbers fixes x long and leaves y without a type; then 4 and 3.5 come in
    // one page (4.0 beside 3.5) or in two (4 alone)
    long[] sample = new long[StreamSchema.ROWS];
    java.util.Arrays.fill(sample, 7);
    Page first = page("x", longs(sample), "y", strings(new String[StreamSchema.ROWS]));
    for (ResultEncoder.Format format :
        List.of(ResultEncoder.Format.NDJSON, ResultEncoder.Format.CSV)) {
      String together = encode(format, first, page("x", doubles(4, 3.5), "y", doubles(4, 3.5)));
      String apart =
          encode(
              format,
              first,
              page("x", longs(4), "y", longs(4)),
              page("x", doubles(3.5), "y", doubles(3.5)));
      assertThat(together).as(format.name()).isEqualTo(apart);
      if (format == ResultEncoder.Format.NDJSON) {
        assertThat(together).endsWith("{\"x\":4,\"y\":4}\n{\"x\":3.5,\"y\":3.5}\n");
      }
    }
  }

  private static String type(JsonNode page, String name) {
    for (JsonNode field : page.path("fields")) {
      if (field.path("name").asText().equals(name)) {
        return field.path("type").asText();
      }
    }
    throw new AssertionError("no field " + name + " in " + page);
  }

  private static String encode(ResultEncoder.Format format, Page... pages) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ResultEncoder encoder = new ResultEncoder(format, false)) {
      for (Page page : pages) {
        out.write(encoder.page(page));
      }
      out.write(encoder.finish(List.of()));
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
