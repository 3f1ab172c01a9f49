package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.ql.parser.QueryParseException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code lookup} on the page engine against answers worked out by hand from the table above. */
class LookupTest {
  private static final LookupTable USERS =
      new LookupTable(
          List.of("user", "dept", "title"),
          List.of(
              List.of("amy", "sales", "lead"),
              List.of("bob", "eng", "dev"),
              List.of("bob", "ops", "dev"),
              List.of("zed", "", "intern")));

  private static final List<Row> ROWS =
      List.of(
          TestRow.of("e1", "id", "e1", "who", "bob"),
          TestRow.of("e2", "id", "e2", "who", "amy", "dept", "given"),
          TestRow.of("e3", "id", "e3", "who", "nobody"),
          TestRow.of("e4", "id", "e4"),
          TestRow.of("e5", "id", "e5", "who", "zed"));

  /** {@code query}'s commands on the page engine ({@link LookupOperator}) over the rows above. */
  private static List<List<Object>> run(String query) {
    Evaluator evaluator =
        new Evaluator(
            Instant.EPOCH, ZoneOffset.UTC, name -> name.equals("users.csv") ? USERS : null);
    return PipelineTest.table(
        PageRun.run(query, TestPages.pages(PipelineTest.cells(ROWS), 2), 1024, evaluator));
  }

  @Test
  void outputsEveryNonKeyColumnOfTheMatchingRows() {
    assertThat(run("* | lookup users.csv user AS who | table id, dept, title"))
        .containsExactly(
            List.of("e1", List.of("eng", "ops"), "dev"), // two matches: multivalue, distinct values
            List.of("e2", "sales", "lead"),
            Arrays.asList("e3", null, null),
            Arrays.asList("e4", null, null),
            Arrays.asList("e5", null, "intern")); // an empty cell outputs nothing
  }

  @Test
  void outputNewKeepsFieldsTheRowHasAndOutputRenames() {
    assertThat(run("* | lookup users.csv user AS who OUTPUTNEW dept | table id, dept"))
        .containsExactly(
            List.of("e1", List.of("eng", "ops")),
            List.of("e2", "given"),
            Arrays.asList("e3", (Object) null),
            Arrays.asList("e4", (Object) null),
            Arrays.asList("e5", (Object) null));
    assertThat(run("* | lookup users.csv user AS who OUTPUT title AS job | table id, job").get(1))
        .isEqualTo(List.of("e2", "lead"));
  }

  @Test
  void mistakesAreNamed() {
    assertThatThrownBy(() -> run("* | lookup nope.csv user"))
        .hasMessageContaining("lookup table 'nope.csv' does not exist");
    assertThatThrownBy(() -> run("* | lookup users.csv login"))
        .hasMessageContaining("has no column 'login' (it has user, dept, title)");
    assertThatThrownBy(() -> run("* | lookup users.csv"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("a key field");
    assertThatThrownBy(() -> run("* | lookup users.csv user OUTPUT"))
        .isInstanceOf(QueryParseException.class);
  }
}
