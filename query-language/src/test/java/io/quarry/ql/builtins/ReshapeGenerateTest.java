package io.quarry.ql.builtins;

import static io.quarry.ql.builtins.CommandHarness.row;
import static io.quarry.ql.builtins.CommandHarness.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import io.quarry.ql.parser.QueryParseException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** transpose over pages; makeresults' inline data and gentimes as the parser binds them. */
class ReshapeGenerateTest {
  private static final Parser PARSER = new Parser(CommandRegistry.builtIns());

  @Test
  void transposeTurnsFieldsIntoRows() {
    var rows =
        List.of(row("h", "a", "n", 1L), row("h", "b", "n", 2L, "e", "x"), row("h", "c", "n", 3L));
    var out = run("transpose 2", rows);
    assertThat(out).hasSize(3);
    assertThat(out.get(0)).containsEntry("column", "h").containsEntry("row 1", "a");
    assertThat(out.get(1)).containsEntry("row 2", "2");
    assertThat(out.get(2)).containsEntry("column", "e").doesNotContainKey("row 1");
    var headed = run("transpose 0 header_field=h include_empty=f", rows.subList(0, 1));
    assertThat(headed).containsExactly(Map.of("column", "n", "a", 1L));
    assertThat(CommandHarness.heldBytes("transpose", rows)).isPositive();
  }

  @Test
  void makeresultsDataIsParsedWithTheQuery() {
    Command csv =
        PARSER
            .parse("| makeresults format=csv data=\"a,b\\n1,\\\"x,\\\"\\\"y\\\"\"")
            .commands()
            .get(0);
    assertThat(csv).isInstanceOf(PluginCommand.class);
    var bound = (MakeResultsDataCommand.Bound) ((PluginCommand) csv).bound();
    assertThat(bound.rows()).containsExactly(Map.of("a", List.of("1"), "b", List.of("x,\"y")));
    assertThat(MakeResultsDataCommand.json("{\"a\":[1,2.5],\"b\":{\"c\":true},\"d\":null}"))
        .containsExactly(Map.of("a", List.of(1L, 2.5), "b", List.of("{\"c\":true}")));
    assertThatThrownBy(() -> PARSER.parse("| makeresults format=csv data=\"a,a\\n1,2\""))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("repeated");
    assertThatThrownBy(() -> PARSER.parse("| makeresults count=2 format=json data=\"{}\""))
        .isInstanceOf(QueryParseException.class);
  }

  @Test
  void gentimesCountsDaysFromToday() {
    java.time.LocalDate today = java.time.LocalDate.of(2026, 1, 7);
    assertThat(GentimesCommand.epochSeconds("-1", java.time.ZoneOffset.UTC, today))
        .isEqualTo(java.time.Instant.parse("2026-01-06T00:00:00Z").getEpochSecond());
    assertThat(GentimesCommand.epochSeconds("1/2/26:03:04:05", java.time.ZoneOffset.UTC, today))
        .isEqualTo(java.time.Instant.parse("2026-01-02T03:04:05Z").getEpochSecond());
    assertThatThrownBy(() -> PARSER.parse("| gentimes start=2/30/2021"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("not a date");
  }

  @Test
  void appendpipeAddsItsPipelinesAnswerAfterTheResults() {
    var rows = List.of(row("h", "a", "n", 1L), row("h", "b", "n", 2L), row("h", "c", "n", 4L));
    var out = run("appendpipe [stats sum(n) AS n | eval h=\"all\"]", rows);
    assertThat(out).extracting(r -> r.get("h")).containsExactly("a", "b", "c", "all");
    assertThat(out.get(3)).containsEntry("n", 7L);
    assertThat(CommandHarness.heldBytes("appendpipe [head 1]", rows)).isPositive();
    assertThatThrownBy(() -> CommandHarness.parse("appendpipe [stats count"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("no matching ']'");
    assertThatThrownBy(() -> CommandHarness.parse("appendpipe [stast count]"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("stast");
  }
}
