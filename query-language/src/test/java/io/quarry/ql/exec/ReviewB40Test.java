package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Review b40: aggslot's count beside numeric functions, filldown's wildcard field list. */
class ReviewB40Test {
  private static List<Row> mixedRows() {
    List<Row> rows = new ArrayList<>();
    rows.add(TestRow.of("1", "g", "a", "x", "5"));
    rows.add(TestRow.of("2", "g", "a")); // x missing
    rows.add(TestRow.of("3", "g", "a", "x", "abc")); // not a number
    rows.add(TestRow.of("4", "g", "a", "x", List.of("1", "9"))); // multivalue
    rows.add(TestRow.of("5", "g", "b", "x", "nan"));
    rows.add(TestRow.of("6", "g", "b"));
    rows.add(TestRow.of("7", "x", "3")); // by-field missing
    rows.add(TestRow.of("8", "g", List.of("a", "b"), "x", "2")); // multivalue by-field
    return rows;
  }

  /**
   * count beside every numeric function counts events, as count alone does (1 and 1,024 rows a
   * page).
   */
  @Test
  void countBesideNumericFunctionsCountsEvents() {
    for (int pageSize : new int[] {1, 3, 1024}) {
      List<List<Object>> alone =
          PipelineTest.table(PipelineTest.run("* | stats count by g", mixedRows(), pageSize));
      for (String f : List.of("range(x)", "min(x)", "max(x)", "sum(x)", "avg(x)")) {
        List<List<Object>> beside =
            PipelineTest.table(
                PipelineTest.run(
                    "* | stats " + f + " AS r, count, count(x) AS cx by g", mixedRows(), pageSize));
        List<List<Object>> counts = new ArrayList<>();
        for (List<Object> row : beside) {
          counts.add(List.of(row.get(0), row.get(2)));
        }
        assertThat(counts).as(f + ", pages of " + pageSize).isEqualTo(alone);
        // count(x) counts x's values: a: 5, abc, 1, 9, 2 = 5; b: nan, 2 = 2
        assertThat(beside.get(0).get(3)).as(f + " count(x) of a").isEqualTo(5L);
        assertThat(beside.get(1).get(3)).as(f + " count(x) of b").isEqualTo(2L);
      }
    }
  }

  /** chart and eventstats: count beside a numeric function as count alone, multivalued by-field. */
  @Test
  void chartAndEventstatsCountBesideNumericFunctions() {
    for (int pageSize : new int[] {1, 1024}) {
      assertThat(
              PipelineTest.table(
                  PipelineTest.run(
                      "* | chart count, max(x) AS m over g | fields g count",
                      mixedRows(),
                      pageSize)))
          .as("chart, pages of " + pageSize)
          .isEqualTo(
              PipelineTest.table(
                  PipelineTest.run(
                      "* | chart count over g | fields g count", mixedRows(), pageSize)));
      assertThat(
              PipelineTest.table(
                  PipelineTest.run(
                      "* | eventstats range(x) AS r, count by g | table g count",
                      mixedRows(),
                      pageSize)))
          .as("eventstats, pages of " + pageSize)
          .isEqualTo(
              PipelineTest.table(
                  PipelineTest.run(
                      "* | eventstats count by g | table g count", mixedRows(), pageSize)));
    }
  }

  /** Splunk's filldown takes a wildcard field list: {@code filldown f*} fills f1 and f2. */
  @Test
  void filldownFillsWildcardFields() {
    List<Row> rows = new ArrayList<>();
    rows.add(TestRow.of("1", "f1", "a", "f2", "b", "g", "c"));
    rows.add(TestRow.of("2", "h", "x"));
    List<List<Object>> plain =
        PipelineTest.table(PipelineTest.run("* | filldown f1 f2 | table f1 f2 g", rows, 1024));
    List<List<Object>> wild =
        PipelineTest.table(PipelineTest.run("* | filldown f* | table f1 f2 g", rows, 1024));
    assertThat(plain.get(1).subList(0, 2)).isEqualTo(List.of("a", "b"));
    assertThat(wild).isEqualTo(plain);
    // a field the pattern matches first met on a later page, the pages one row each
    List<Row> later = new ArrayList<>();
    later.add(TestRow.of("1", "h", "x"));
    later.add(TestRow.of("2", "f3", "z", "F4", "w"));
    later.add(TestRow.of("3", "h", "y"));
    for (int pageSize : new int[] {1, 1024}) {
      assertThat(
              PipelineTest.table(
                  PipelineTest.run("* | filldown f* | table f3 F4 h", later, pageSize)))
          .as("pages of " + pageSize)
          .containsExactly(
              java.util.Arrays.asList(null, null, "x"),
              java.util.Arrays.asList("z", "w", null),
              java.util.Arrays.asList("z", null, "y")); // F4: field names match by case
    }
  }
}
