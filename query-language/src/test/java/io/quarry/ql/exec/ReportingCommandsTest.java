package io.quarry.ql.exec;

import static io.quarry.ql.exec.PipelineTest.run;
import static io.quarry.ql.exec.PipelineTest.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import io.quarry.ql.parser.QueryParseException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** sort, top, rare, table, fields, rename, tail, reverse and dedup, with Splunk's semantics. */
class ReportingCommandsTest {
  private static final List<Row> ROWS =
      List.of(
          row("e1", "host", "web-2", "status", 200L, "bytes", 100L, "user", "bob"),
          row("e2", "host", "web-1", "status", 404L, "bytes", 9L, "user", "amy"),
          row("e3", "host", "web-1", "status", 200L, "bytes", 1000L),
          row("e4", "host", "web-2", "status", 500L, "bytes", "-", "user", "Zed"),
          row("e5", "host", "web-1", "status", 200L, "bytes", 20L, "user", "bob"));

  /** A row with an {@code id} field naming it. */
  private static Row row(String id, Object... fields) {
    Object[] all = new Object[fields.length + 2];
    all[0] = "id";
    all[1] = id;
    System.arraycopy(fields, 0, all, 2, fields.length);
    return TestRow.of(id, all);
  }

  private static List<List<Object>> rows(String query) {
    return table(run(query, ROWS, 1024));
  }

  private static List<String> columns(String query) {
    List<Page> pages = run(query, ROWS, 1024);
    return pages.get(0).schema().columns().stream().map(c -> c.name()).toList();
  }

  @Test
  void fieldsummaryCountsEveryFieldWithItsTopValues() {
    assertThat(
            rows(
                "* | fieldsummary maxvals=2 | table field, count, distinct_count, numeric_count, min, max, values"))
        .containsExactly(
            java.util.Arrays.asList(
                "id",
                5L,
                5L,
                0L,
                null,
                null,
                "[{\"value\":\"e1\",\"count\":1},{\"value\":\"e2\",\"count\":1}]"),
            java.util.Arrays.asList(
                "host",
                5L,
                2L,
                0L,
                null,
                null,
                "[{\"value\":\"web-1\",\"count\":3},{\"value\":\"web-2\",\"count\":2}]"),
            List.of(
                "status",
                5L,
                3L,
                5L,
                200.0,
                500.0,
                "[{\"value\":\"200\",\"count\":3},{\"value\":\"404\",\"count\":1}]"),
            List.of(
                "bytes",
                5L,
                5L,
                4L,
                9.0,
                1000.0,
                "[{\"value\":\"-\",\"count\":1},{\"value\":\"100\",\"count\":1}]"),
            java.util.Arrays.asList(
                "user",
                4L,
                3L,
                0L,
                null,
                null,
                "[{\"value\":\"bob\",\"count\":2},{\"value\":\"Zed\",\"count\":1}]"));
  }

  @Test
  void sortOrdersNumbersNumericallyBeforeTextAndMissingLast() {
    // descending reverses the whole order: text before numbers; the numbers stay numbers beside
    // the text "-" on their page (session 42: a value keeps its type whatever shares its page)
    assertThat(rows("* | sort -bytes | table bytes"))
        .containsExactly(List.of("-"), List.of(1000L), List.of(100L), List.of(20L), List.of(9L));
    assertThat(rows("* | sort bytes | table bytes"))
        .containsExactly(List.of(9L), List.of(20L), List.of(100L), List.of(1000L), List.of("-"));
    // num(): what is not a number goes last either way
    assertThat(rows("* | sort -num(bytes) | table bytes").get(0)).containsExactly(1000L);
    assertThat(rows("* | sort -num(bytes) | table bytes").get(4)).containsExactly("-");
    assertThat(rows("* | sort str(bytes) | table bytes").get(0)).containsExactly("-");
    assertThat(rows("* | sort -status | table status").get(0)).containsExactly(500L);
    // upper case before lower case; the row without a user last; ties keep arrival order
    assertThat(rows("* | sort user, -id | table user id"))
        .containsExactly(
            List.of("Zed", "e4"),
            List.of("amy", "e2"),
            List.of("bob", "e5"),
            List.of("bob", "e1"),
            Arrays.asList(null, "e3"));
    assertThat(rows("* | sort 2 host -bytes | table id"))
        .containsExactly(List.of("e3"), List.of("e5"));
    assertThat(rows("* | sort limit=1 num(bytes) d | table id")).containsExactly(List.of("e3"));
  }

  @Test
  void topAndRareCountAndGiveThePercentageOfRowsWithTheField() {
    assertThat(columns("* | top status")).containsExactly("status", "count", "percent");
    assertThat(rows("* | top status"))
        .containsExactly(
            List.of("200", 3L, 60.0), List.of("404", 1L, 20.0), List.of("500", 1L, 20.0));
    assertThat(rows("* | rare limit=1 status")).containsExactly(List.of("404", 1L, 20.0));
    assertThat(rows("* | top 1 user by host showperc=f countfield=n"))
        .containsExactly(List.of("web-1", "amy", 1L), List.of("web-2", "bob", 1L));
    assertThat(rows("* | top user showcount=false"))
        .as("ties in value order, ignoring case")
        .containsExactly(List.of("bob", 50.0), List.of("amy", 25.0), List.of("Zed", 25.0));
  }

  @Test
  void topPartialsMergeIntoTheSameAnswer() {
    io.quarry.ql.ast.TopCommand command =
        (io.quarry.ql.ast.TopCommand)
            new Parser(CommandRegistry.builtIns()).parse("* | top user by host").commands().get(1);
    io.quarry.ql.engine.aggregation.PageAggregator total =
        io.quarry.ql.engine.aggregation.PageAggregator.of(
            command, java.time.ZoneOffset.UTC, MemoryTracker.unbounded("top"), 100);
    io.quarry.ql.engine.aggregation.PageAggregator a = total.newPartial();
    io.quarry.ql.engine.aggregation.PageAggregator b = total.newPartial();
    List<java.util.Map<String, List<Object>>> cells = PipelineTest.cells(ROWS);
    for (int i = 0; i < cells.size(); i++) {
      (i % 2 == 0 ? a : b).addInput(TestPages.page(List.of(cells.get(i)), TestPages.names(cells)));
    }
    total.merge(a);
    total.merge(b);
    total.finish();
    List<Page> pages = new java.util.ArrayList<>();
    for (Page page = total.getOutput(); page != null; page = total.getOutput()) {
      pages.add(page);
    }
    total.close();
    assertThat(table(pages)).isEqualTo(rows("* | top user by host"));
  }

  @Test
  void tableFieldsAndRenameShapeTheColumns() {
    assertThat(columns("* | table status, host")).containsExactly("status", "host");
    assertThat(columns("* | table st* missing")).containsExactly("status", "missing");
    assertThat(columns("* | fields - bytes, user")).containsExactly("id", "host", "status");
    assertThat(columns("* | fields host")).containsExactly("host");
    assertThat(rows("* | rename host AS server, st* AS s_* | table server s_atus | head 1"))
        .containsExactly(List.of("web-2", 200L));
    assertThat(columns("* | stats count by host | rename count AS events"))
        .containsExactly("host", "events");
  }

  @Test
  void tailReverseAndDedup() {
    assertThat(rows("* | tail 2 | table id")).containsExactly(List.of("e5"), List.of("e4"));
    assertThat(rows("* | reverse | head 1 | table id")).containsExactly(List.of("e5"));
    assertThat(rows("* | dedup host | table id")).containsExactly(List.of("e1"), List.of("e2"));
    assertThat(rows("* | dedup 2 host | table id"))
        .containsExactly(List.of("e1"), List.of("e2"), List.of("e3"), List.of("e4"));
    assertThat(rows("* | dedup user | table id"))
        .containsExactly(List.of("e1"), List.of("e2"), List.of("e4"));
    assertThat(rows("* | dedup user keepempty=true | table id"))
        .containsExactly(List.of("e1"), List.of("e2"), List.of("e3"), List.of("e4"));
    assertThat(rows("* | dedup status consecutive=t | table id"))
        .containsExactly(List.of("e1"), List.of("e2"), List.of("e3"), List.of("e4"), List.of("e5"));
    assertThat(rows("* | dedup host sortby -bytes | table id"))
        .containsExactly(List.of("e1"), List.of("e2"));
  }

  @Test
  void badArgumentsAreParseErrorsWithPositions() {
    Parser parser = new Parser(CommandRegistry.builtIns());
    assertThatThrownBy(() -> parser.parse("* | sort"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("a field to sort by");
    assertThatThrownBy(() -> parser.parse("* | top limit=x status"))
        .hasMessageContaining("non-negative whole number");
    assertThatThrownBy(() -> parser.parse("* | top useother=t status"))
        .hasMessageContaining("Unknown option 'useother' for top");
    assertThatThrownBy(() -> parser.parse("* | rename a b")).hasMessageContaining("'AS'");
    assertThatThrownBy(() -> parser.parse("* | sort foo(bar)"))
        .hasMessageContaining("Unknown sort function 'foo'");
    assertThatThrownBy(() -> parser.parse("* | dedup 0 host")).hasMessageContaining("at least 1");
  }
}
