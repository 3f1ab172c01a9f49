package io.quarry.server.rest;

import static io.quarry.server.rest.TestPages.doubles;
import static io.quarry.server.rest.TestPages.multiLongs;
import static io.quarry.server.rest.TestPages.multiStrings;
import static io.quarry.server.rest.TestPages.page;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.Page;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.junit.jupiter.api.Test;

/**
 * Positions with several values through {@link ResultValues} and every format of {@link
 * ResultEncoder}: arrays in JSON and NDJSON, one newline-joined cell in CSV, an Arrow list column
 * whenever the sample has a multivalue in the column (its single values lists of one; a multivalue
 * after the sample in a single-valued column is counted, not written as something else).
 */
class MultivalueEncodingTest {
  private static Page sample() {
    return page(
        "m",
        multiStrings(List.of("GET", "POST"), "PUT", null),
        "n",
        multiLongs(DataType.LONG, List.of(1L, 2L), 3L, null),
        "t",
        multiLongs(DataType.TIMESTAMP, List.of(0L, 1_500_000L), null, 2_000L));
  }

  @Test
  void resultValuesRenderEachValue() {
    Page page = sample();
    Block m = page.block("m");
    assertThat(ResultValues.typed(m, 0)).isEqualTo(List.of("GET", "POST"));
    assertThat(ResultValues.typed(m, 1)).isEqualTo("PUT");
    assertThat(ResultValues.typed(m, 2)).isNull();
    assertThat(ResultValues.typed(page.block("n"), 0)).isEqualTo(List.of(1L, 2L));
    assertThat(ResultValues.splunk(page.block("n"), 0)).isEqualTo(List.of("1", "2"));
    assertThat(ResultValues.splunk(page.block("n"), 1)).isEqualTo("3");
    assertThat(ResultValues.text(m, 0)).isEqualTo("GET\nPOST");
    assertThat(ResultValues.typed(page.block("t"), 0))
        .isEqualTo(List.of("1970-01-01T00:00:00.000+00:00", "1970-01-01T00:00:01.500+00:00"));
    assertThat(ResultValues.text(page.block("t"), 0))
        .isEqualTo("1970-01-01T00:00:00.000+00:00\n1970-01-01T00:00:01.500+00:00");
  }

  private static String encode(ResultEncoder.Format format, Page... pages) throws Exception {
    try (ResultEncoder encoder = new ResultEncoder(format, false)) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      for (Page page : pages) {
        bytes.write(encoder.page(page));
      }
      bytes.write(encoder.finish(List.of()));
      return bytes.toString(StandardCharsets.UTF_8);
    }
  }

  @Test
  void jsonAndNdjsonWriteArraysCsvOneCell() throws Exception {
    assertThat(encode(ResultEncoder.Format.JSON, sample()))
        .isEqualTo(
            "{\"pages\":[{\"fields\":[{\"name\":\"m\",\"type\":\"string\"},"
                + "{\"name\":\"n\",\"type\":\"long\"},{\"name\":\"t\",\"type\":\"timestamp\"}],"
                + "\"rows\":[[[\"GET\",\"POST\"],[1,2],"
                + "[\"1970-01-01T00:00:00.000+00:00\",\"1970-01-01T00:00:01.500+00:00\"]],"
                + "[\"PUT\",3,null],[null,null,\"1970-01-01T00:00:00.002+00:00\"]]}],"
                + "\"messages\":[]}");
    assertThat(encode(ResultEncoder.Format.NDJSON, sample()).split("\n"))
        .containsExactly(
            "{\"m\":[\"GET\",\"POST\"],\"n\":[1,2],"
                + "\"t\":[\"1970-01-01T00:00:00.000+00:00\",\"1970-01-01T00:00:01.500+00:00\"]}",
            "{\"m\":\"PUT\",\"n\":3}",
            "{\"t\":\"1970-01-01T00:00:00.002+00:00\"}");
    assertThat(encode(ResultEncoder.Format.CSV, sample()))
        .isEqualTo(
            "m,n,t\r\n\"GET\nPOST\",\"1\n2\","
                + "\"1970-01-01T00:00:00.000+00:00\n1970-01-01T00:00:01.500+00:00\"\r\n"
                + "PUT,3,\r\n,,1970-01-01T00:00:00.002+00:00\r\n");
  }

  /** Field types, then each row's values, as Arrow's Java reader sees them. */
  private static List<String> arrow(byte[] stream) throws Exception {
    List<String> lines = new ArrayList<>();
    try (RootAllocator allocator = new RootAllocator();
        ArrowStreamReader reader =
            new ArrowStreamReader(new ByteArrayInputStream(stream), allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      root.getSchema()
          .getFields()
          .forEach(
              f ->
                  lines.add(
                      f.getName()
                          + ": "
                          + f.getType()
                          + (f.getChildren().isEmpty()
                              ? ""
                              : " of " + f.getChildren().get(0).getType())));
      while (reader.loadNextBatch()) {
        for (int row = 0; row < root.getRowCount(); row++) {
          List<String> values = new ArrayList<>();
          for (var vector : root.getFieldVectors()) {
            values.add(String.valueOf(vector.getObject(row)));
          }
          lines.add(String.join(" | ", values));
        }
      }
    }
    return lines;
  }

  private static byte[] arrowBytes(Page... pages) throws Exception {
    try (ResultEncoder encoder = new ResultEncoder(ResultEncoder.Format.ARROW, false)) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      for (Page page : pages) {
        bytes.write(encoder.page(page));
      }
      bytes.write(encoder.finish(List.of()));
      return bytes.toByteArray();
    }
  }

  @Test
  void arrowMakesListColumnsOfColumnsWithAMultivalueInAnyPageOfTheSample() throws Exception {
    // m has a multivalue only in the second page; n widens to double across pages
    Page first =
        page("m", multiStrings("a", null), "n", multiLongs(DataType.LONG, List.of(1L, 2L), 3L));
    Page second = page("m", multiStrings(List.of("b", "c")), "n", doubles(2.5));
    assertThat(arrow(arrowBytes(first, second)))
        .containsExactly(
            "m: List of Utf8",
            "n: List of FloatingPoint(DOUBLE)",
            "[\"a\"] | [1.0,2.0]",
            "null | [3.0]",
            "[\"b\",\"c\"] | [2.5]");
    assertThat(arrow(arrowBytes(sample())))
        .containsExactly(
            "m: List of Utf8",
            "n: List of Int(64, true)",
            "t: List of Timestamp(MICROSECOND, UTC)",
            "[\"GET\",\"POST\"] | [1,2] | [0,1500000]",
            "[\"PUT\"] | [3] | null",
            "null | null | [2000]");
  }

  @Test
  void aMultivalueAfterTheSampleInASingleValuedColumnIsNulledAndCounted() throws Exception {
    StreamSchema sample = new StreamSchema();
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    List<Page> pages = new ArrayList<>();
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < StreamSchema.ROWS; i++) {
      values.add(i % 2 == 0 ? "x" : "y");
    }
    pages.add(page("s", multiStrings(values.toArray())));
    pages.add(page("s", multiStrings(List.of("p", "q"), "z")));
    try (ArrowStreamEncoder arrow = new ArrowStreamEncoder(false)) {
      boolean started = false;
      for (Page page : pages) {
        if (started) {
          stream.write(arrow.page(page));
        } else if (sample.add(page)) {
          stream.write(arrow.start(sample));
          started = true;
        }
      }
      stream.write(arrow.finish());
    }
    List<String> read = arrow(stream.toByteArray());
    assertThat(read.get(0)).isEqualTo("s: Int(32, true)"); // dictionary-encoded: x, y repeat
    // the multivalue is null; "z" is index 0 of its page's (replacement) dictionary
    assertThat(read.subList(read.size() - 2, read.size())).containsExactly("null", "0");
    assertThat(sample.misfits())
        .contains("1 values of another type sent as null (1 of them multivalues");
  }
}
