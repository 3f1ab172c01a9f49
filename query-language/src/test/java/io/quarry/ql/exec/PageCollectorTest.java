package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Rows become typed pages: a field with several values in a row is a block position with several
 * values, the column typed by all its values; pages become rows again with the multivalues intact.
 */
class PageCollectorTest {

  private static Block column(Page page, String name) {
    Block block = page.block(name);
    assertThat(block).as("column %s", name).isNotNull();
    return block;
  }

  @Test
  void multivaluesOfLongsMakeALongColumnWithSeveralValuesPerPosition() {
    Page page =
        TestPages.page(
            PipelineTest.cells(
                List.of(
                    TestRow.of("a", "n", List.of(1L, 2L, 3L), "s", "x"),
                    TestRow.of("b", "n", 4L),
                    TestRow.of("c", "s", List.of("y", "z")))));
    LongBlock n = (LongBlock) column(page, "n");
    assertThat(n.dataType()).isEqualTo(DataType.LONG);
    assertThat(n.mayHaveMultivaluedFields()).isTrue();
    assertThat(n.getValueCount(0)).isEqualTo(3);
    assertThat(n.getValueCount(1)).isEqualTo(1);
    assertThat(n.getValueCount(2)).isZero();
    assertThat(n.getValues(0)).isEqualTo(List.of(1L, 2L, 3L));
    assertThat(n.getObject(0)).as("the first value").isEqualTo(1L);
    assertThat(n.getObject(1)).isEqualTo(4L);
    assertThat(n.getLongValue(n.getFirstValueIndex(0) + 2)).isEqualTo(3L);
    assertThat(n.getLong(1)).isEqualTo(4L);
    BytesBlock s = (BytesBlock) column(page, "s");
    assertThat(s.getObject(0)).isEqualTo("x");
    assertThat(s.isNull(1)).isTrue();
    assertThat(s.getValues(2)).isEqualTo(List.of("y", "z"));
  }

  @Test
  void aMultivalueMixingNumbersAndTextMakesATextColumn() {
    Page page =
        TestPages.page(
            PipelineTest.cells(
                List.of(TestRow.of("a", "m", List.of(1L, "two", 2.5)), TestRow.of("b", "m", 7L))));
    Block m = column(page, "m");
    assertThat(m.dataType()).isEqualTo(DataType.STRING);
    assertThat(m.getValues(0)).isEqualTo(List.of("1", "two", "2.5"));
    assertThat(m.getObject(1)).isEqualTo("7");
    Page numbers =
        TestPages.page(
            PipelineTest.cells(
                List.of(TestRow.of("a", "m", List.of(1L, 2.5)), TestRow.of("b", "m", 7L))));
    assertThat(column(numbers, "m").dataType()).isEqualTo(DataType.DOUBLE);
    assertThat(column(numbers, "m").getValues(0)).isEqualTo(List.of(1.0, 2.5));
  }

  @Test
  void pagesOfASingleValuedColumnKeepNoFirstValueIndex() {
    Page page =
        TestPages.page(
            PipelineTest.cells(List.of(TestRow.of("a", "n", 1L), TestRow.of("b", "n", 2L))));
    assertThat(column(page, "n").mayHaveMultivaluedFields()).isFalse();
  }

  @Test
  void valuesListSplitAndMvappendComeOutAsMultivalues() {
    List<Row> rows =
        List.of(
            TestRow.of("e1", "method", "GET", "csv", "a,b,c", "x", 1L, "y", 2L),
            TestRow.of("e2", "method", "POST", "csv", "d", "x", 3L, "y", 4L),
            TestRow.of("e3", "method", "GET", "csv", "e,f", "x", 5L, "y", 6L));
    List<List<Object>> stats =
        PipelineTest.table(
            PipelineTest.run("* | stats values(method) AS v, list(method) AS l", rows, 1024));
    assertThat(stats)
        .containsExactly(List.of(List.of("GET", "POST"), List.of("GET", "POST", "GET")));

    List<Page> pages = PipelineTest.run("* | eval m=split(csv, \",\") | table m", rows, 2);
    assertThat(pages).hasSize(2);
    assertThat(pages.get(0).block("m").dataType()).isEqualTo(DataType.STRING);
    assertThat(PipelineTest.table(pages))
        .containsExactly(List.of(List.of("a", "b", "c")), List.of("d"), List.of(List.of("e", "f")));

    List<Page> appended = PipelineTest.run("* | eval m=mvappend(x, y) | table m", rows, 1024);
    assertThat(appended.get(0).block("m").dataType()).isEqualTo(DataType.LONG);
    assertThat(PipelineTest.table(appended))
        .containsExactly(
            List.of(List.of(1L, 2L)), List.of(List.of(3L, 4L)), List.of(List.of(5L, 6L)));
  }

  @Test
  void aRowsSeveralValuesStayOnePosition() {
    List<Row> rows =
        List.of(
            TestRow.of("a", "n", List.of(1L, 2L), "s", "x"),
            TestRow.of("b", "n", 3L, "s", List.of("y", "z")));
    Page page = TestPages.page(PipelineTest.cells(rows));
    assertThat(page.positionCount()).isEqualTo(2);
    assertThat(page.block("n").dataType()).isEqualTo(DataType.LONG);
    assertThat(page.block("n").getValues(0)).containsExactly(1L, 2L);
    assertThat(page.block("n").getValues(1)).containsExactly(3L);
    assertThat(page.block("s").getValues(0)).containsExactly("x");
    assertThat(page.block("s").getValues(1)).containsExactly("y", "z");
  }
}
