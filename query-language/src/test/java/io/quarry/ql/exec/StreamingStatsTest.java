package io.quarry.ql.exec;

import static io.quarry.ql.exec.PipelineTest.run;
import static io.quarry.ql.exec.PipelineTest.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import io.quarry.ql.parser.QueryParseException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** eventstats and streamstats: stats added to rows instead of replacing them. */
class StreamingStatsTest {
  private static final List<Row> ROWS =
      List.of(
          TestRow.of("e1", "id", "e1", "host", "a", "bytes", 10L),
          TestRow.of("e2", "id", "e2", "host", "b", "bytes", 20L),
          TestRow.of("e3", "id", "e3", "host", "a", "bytes", 30L),
          TestRow.of("e4", "id", "e4", "bytes", 40L),
          TestRow.of("e5", "id", "e5", "host", "a", "bytes", 50L));

  private static List<List<Object>> rows(String query) {
    return table(run(query, ROWS, 2));
  }

  @Test
  void eventstatsAddsTheGroupsAggregatesToEveryRowInOrder() {
    assertThat(rows("* | eventstats count, avg(bytes) AS mean by host | table id, count, mean"))
        .containsExactly(
            Arrays.asList("e1", 3L, 30.0),
            Arrays.asList("e2", 1L, 20.0),
            Arrays.asList("e3", 3L, 30.0),
            Arrays.asList("e4", null, null), // no host: no group
            Arrays.asList("e5", 3L, 30.0));
  }

  @Test
  void eventstatsWithoutByAggregatesEverything() {
    assertThat(rows("* | eventstats sum(bytes) AS total | where bytes * 5 > total | table id"))
        .containsExactly(List.of("e4"), List.of("e5"));
  }

  @Test
  void streamstatsRunsPerGroupInArrivalOrder() {
    assertThat(
            rows("* | streamstats count, sum(bytes) AS running by host | table id, count, running"))
        .containsExactly(
            Arrays.asList("e1", 1L, 10L),
            Arrays.asList("e2", 1L, 20L),
            Arrays.asList("e3", 2L, 40L),
            Arrays.asList("e4", null, null),
            Arrays.asList("e5", 3L, 90L));
  }

  @Test
  void streamstatsWithoutTheCurrentRow() {
    assertThat(
            rows("* | streamstats current=f max(bytes) AS previous_max | table id, previous_max"))
        .containsExactly(
            Arrays.asList("e1", null),
            Arrays.asList("e2", 10L),
            Arrays.asList("e3", 20L),
            Arrays.asList("e4", 30L),
            Arrays.asList("e5", 40L));
  }

  @Test
  void streamstatsWindowOverTheStreamAndPerGroup() {
    // global window of 2 rows: the row and the one before, counted in the row's group
    assertThat(rows("* | streamstats window=2 count by host | table id, count"))
        .containsExactly(
            Arrays.asList("e1", 1L),
            Arrays.asList("e2", 1L),
            Arrays.asList("e3", 1L), // the window holds e2 (host b) and e3
            Arrays.asList("e4", null), // no host: passes by, outside every window
            Arrays.asList("e5", 2L)); // e3 and e5
    assertThat(
            rows(
                "* | streamstats window=2 global=f sum(bytes) AS last_two by host | table id, last_two"))
        .containsExactly(
            Arrays.asList("e1", 10L),
            Arrays.asList("e2", 20L),
            Arrays.asList("e3", 40L),
            Arrays.asList("e4", null),
            Arrays.asList("e5", 80L));
    assertThat(rows("* | streamstats window=3 avg(bytes) AS moving | table id, moving"))
        .containsExactly(
            Arrays.asList("e1", 10.0),
            Arrays.asList("e2", 15.0),
            Arrays.asList("e3", 20.0),
            Arrays.asList("e4", 30.0),
            Arrays.asList("e5", 40.0));
  }

  @Test
  void optionsAreChecked() {
    Parser parser = new Parser(CommandRegistry.builtIns());
    assertThatThrownBy(() -> parser.parse("* | streamstats window=x count"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("non-negative whole number");
    assertThatThrownBy(() -> parser.parse("* | streamstats size=3 count"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("Unknown option 'size'");
    assertThatThrownBy(() -> parser.parse("* | eventstats by host"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("after eventstats");
  }
}
