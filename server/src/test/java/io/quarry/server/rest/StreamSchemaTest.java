package io.quarry.server.rest;

import static io.quarry.server.rest.TestPages.doubles;
import static io.quarry.server.rest.TestPages.longs;
import static io.quarry.server.rest.TestPages.page;
import static io.quarry.server.rest.TestPages.strings;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
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
 * One schema for a whole CSV or Arrow stream: fixed from the first rows by widening what each page
 * says, and what a later page brings that does not fit is counted, never written as something else.
 */
class StreamSchemaTest {

  @Test
  void widensTypesAndKeepsColumnsOfEveryHeldPage() {
    StreamSchema sample = new StreamSchema();
    sample.add(page("n", longs(1, 2), "x", longs(7, 8)));
    sample.add(page("n", doubles(2.5, 3))); // long + double: double
    sample.add(page("x", strings("a", "b"), "late", strings(null, null)));
    sample.add(page("late", longs(4, 5))); // null throughout a page says nothing

    assertThat(sample.schema().columns())
        .containsExactly(
            new Schema.Column("n", DataType.DOUBLE),
            new Schema.Column("x", DataType.STRING),
            new Schema.Column("late", DataType.LONG));
    assertThat(StreamSchema.widen(DataType.BOOLEAN, DataType.LONG)).isEqualTo(DataType.STRING);
    assertThat(StreamSchema.widen(DataType.TIMESTAMP, DataType.LONG)).isEqualTo(DataType.STRING);
  }

  @Test
  void aDoubleBlockOfWholeNumbersSaysLong() {
    // issue 21: 4 is a double only where it shared an engine page with a fraction
    StreamSchema sample = new StreamSchema();
    sample.add(page("w", doubles(4, -2), "f", doubles(4, 1), "nan", doubles(Double.NaN, 0)));
    sample.add(page("f", doubles(0.5)));
    sample.wholeDoublesAsLong(); // the whole result, or JSON: no later fraction is lost
    assertThat(sample.schema().columns())
        .containsExactly(
            new Schema.Column("w", DataType.LONG),
            new Schema.Column("f", DataType.DOUBLE),
            new Schema.Column("nan", DataType.DOUBLE));
  }

  @Test
  void aDoubleBlockOfWholeNumbersStaysDoubleWhenRowsMayFollow() {
    // review b41: Arrow's sample cut short of the result's end; a later 0.5 would go as null
    StreamSchema sample = new StreamSchema();
    sample.add(page("w", doubles(4, -2)));
    assertThat(sample.schema().columns()).containsExactly(new Schema.Column("w", DataType.DOUBLE));
  }

  /** Pages of {@code n} (long) until the sample is full, then what does not fit. */
  private static List<Page> overflowingResult() {
    List<Page> pages = new ArrayList<>();
    long[] values = new long[1000];
    for (int i = 0; i < values.length; i++) {
      values[i] = i;
    }
    for (int i = 0; i < StreamSchema.ROWS / values.length; i++) {
      pages.add(page("n", longs(values)));
    }
    // after the sample: a whole double fits the long column, 1.5 and text do not, "late" is new
    pages.add(page("n", doubles(4.0, 1.5), "late", strings("x", null)));
    pages.add(page("n", strings("seven")));
    return pages;
  }

  @Test
  void arrowCountsWhatDoesNotFitAfterTheSample() throws Exception {
    StreamSchema sample = new StreamSchema();
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    try (ArrowStreamEncoder arrow = new ArrowStreamEncoder(false)) {
      boolean started = false;
      for (Page page : overflowingResult()) {
        if (started) {
          stream.write(arrow.page(page));
        } else if (sample.add(page)) {
          stream.write(arrow.start(sample));
          started = true;
        }
      }
      stream.write(arrow.finish());
    }
    List<Object> read = new ArrayList<>();
    try (RootAllocator allocator = new RootAllocator();
        ArrowStreamReader reader =
            new ArrowStreamReader(new ByteArrayInputStream(stream.toByteArray()), allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      assertThat(root.getSchema().getFields()).hasSize(1);
      assertThat(root.getSchema().getFields().get(0).getName()).isEqualTo("n");
      while (reader.loadNextBatch()) {
        for (int row = 0; row < root.getRowCount(); row++) {
          read.add(root.getVector(0).getObject(row));
        }
      }
    }
    assertThat(read).hasSize(StreamSchema.ROWS + 3);
    assertThat(read.subList(StreamSchema.ROWS, read.size())).containsExactly(4L, null, null);
    assertThat(sample.misfits())
        .contains("1 values of columns [late] left out")
        .contains("2 values of another type sent as null");
  }

  @Test
  void csvHeaderHasEveryColumnOfTheFirstRows() throws Exception {
    try (ResultEncoder csv = new ResultEncoder(ResultEncoder.Format.CSV, false)) {
      StringBuilder text = new StringBuilder();
      text.append(new String(csv.page(page("a", longs(1))), StandardCharsets.UTF_8)); // held
      assertThat(text).isEmpty();
      text.append(
          new String(csv.page(page("a", longs(2), "b", strings("late"))), StandardCharsets.UTF_8));
      text.append(new String(csv.finish(List.of()), StandardCharsets.UTF_8));
      assertThat(text.toString()).isEqualTo("a,b\r\n1,\r\n2,late\r\n");
    }
  }

  @Test
  void fitsEverythingInTheSample() {
    StreamSchema sample = new StreamSchema();
    sample.add(page("n", longs(1)));
    assertThat(sample.misfits()).isNull();
  }
}
