package io.quarry.ql.exec;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import io.quarry.ql.parser.QueryParseException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Any eval expression that parses evaluates over a row without throwing: bad arguments give null,
 * as in Splunk. Saved inputs replay in every build; {@code JAZZER_FUZZ=1} fuzzes.
 */
class EvalFuzzTest {
  private static final Parser PARSER = new Parser(CommandRegistry.builtIns());
  private static final Evaluator EVALUATOR = new Evaluator(Instant.EPOCH, ZoneOffset.UTC);
  private static final Row ROW =
      TestRow.of(
          "raw",
          "n",
          "42",
          "x",
          "-1.5e3",
          "s",
          "Hello World",
          "ip",
          "10.1.2.3",
          "mv",
          List.of("a", "b", "c"),
          "_time",
          1_767_744_000_123_456L);

  @FuzzTest(maxDuration = "60s")
  void evaluatesWithoutThrowing(FuzzedDataProvider data) {
    EvalCommand command;
    try {
      if (!(PARSER.parse("* | eval r=" + data.consumeRemainingAsString()).commands().get(1)
          instanceof EvalCommand eval)) {
        return;
      }
      command = eval;
    } catch (QueryParseException notAnExpression) {
      return;
    }
    for (EvalCommand.Assignment assignment : command.assignments()) {
      new RowEvaluator(EVALUATOR).evaluate(assignment.expression(), ROW);
    }
  }
}
