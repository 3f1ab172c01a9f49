package io.quarry.ql.builtins;

import static io.quarry.ql.builtins.CommandHarness.row;
import static io.quarry.ql.builtins.CommandHarness.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.FormatsResults;
import io.quarry.ql.parser.QueryParseException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** foreach's templates and fieldformat's deferred assignment. */
class ForeachCommandTest {
  private static final List<Map<String, Object>> ROWS =
      List.of(
          row("a_ms", 1500L, "b_ms", 20L, "c", 1L),
          row("a_ms", 500L, "c", 2L),
          row("b_ms", 40L, "_hidden_ms", 7L));

  @Test
  void templatesStandForTheFieldAndWhatTheWildcardsMatched() {
    var out = run("foreach *_ms [eval <<MATCHSTR>>_s='<<FIELD>>'/1000]", ROWS);
    assertThat(out).extracting(r -> r.get("a_s")).containsExactly(1.5, 0.5, null);
    assertThat(out).extracting(r -> r.get("b_s")).containsExactly(0.02, null, 0.04);
    assertThat(out.get(2)).as("a wildcard skips internal fields").doesNotContainKey("_hidden_s");
  }

  @Test
  void evalsRunFieldAfterFieldSeeingEarlierAssignments() {
    var out = run("foreach a_ms b_ms [eval t=coalesce(t, 0) + coalesce(<<FIELD>>, 0)]", ROWS);
    assertThat(out).extracting(r -> r.get("t")).containsExactly(1520L, 500L, 40L);
  }

  @Test
  void otherTemplateTextsAndSegments() {
    var out =
        run(
            "foreach *_m* fieldstr=#f# matchseg2=#2# [eval x#2#=#f# | eval y=\"<<MATCHSEG1>>\"]",
            ROWS);
    assertThat(out.get(0)).containsEntry("xs", 20L); // b_ms is visited after a_ms
    assertThat(out.get(0)).containsEntry("y", "b");
  }

  @Test
  void badTemplatesAreParseErrorsInTheQuery() {
    assertThatThrownBy(() -> CommandHarness.parse("foreach a [eval <<FIELD>>=(]"))
        .isInstanceOf(QueryParseException.class);
    assertThatThrownBy(() -> CommandHarness.parse("foreach a [where a>1]"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("only eval");
    assertThatThrownBy(() -> CommandHarness.parse("foreach a [eval x=1"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("no matching ']'");
    assertThatThrownBy(() -> CommandHarness.parse("foreach mode=json_object a [eval x=1]"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("not supported");
  }

  @Test
  void fieldformatHoldsOneAssignmentForThePlanner() {
    var command = CommandHarness.parse("fieldformat c=tostring(c, \"commas\")");
    EvalCommand.Assignment format = ((FormatsResults) command.bound()).format();
    assertThat(format.field()).isEqualTo("c");
    assertThat(run("fieldformat c=\"#\".c", ROWS))
        .extracting(r -> r.get("c"))
        .containsExactly("#1", "#2", null);
    assertThatThrownBy(() -> CommandHarness.parse("fieldformat a=1, b=2"))
        .isInstanceOf(QueryParseException.class);
  }
}
