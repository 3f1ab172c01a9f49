package io.quarry.ql.parser;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.quarry.ql.ast.Command;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.plan.SearchPlanner;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Random and mutated queries never make the parser or the planner throw anything but a {@link
 * QueryParseException}, and never hang; a query that parses is written back by {@link SplText} as
 * text that parses to the same commands. Runs the saved inputs in {@code ParserFuzzTestInputs} as a
 * regression test in every build; {@code JAZZER_FUZZ=1 ./mvnw -pl query-language test
 * -Dtest=ParserFuzzTest} fuzzes.
 */
class ParserFuzzTest {
  private static final Parser PARSER = new Parser(CommandRegistry.builtIns());

  @FuzzTest(maxDuration = "60s")
  void parsesOrRejectsCleanly(FuzzedDataProvider data) {
    String query = data.consumeRemainingAsString();
    List<Command> commands;
    try {
      commands = PARSER.parse(query).commands();
      new SearchPlanner(Instant.EPOCH, ZoneOffset.UTC)
          .plan(PARSER.parse(query), Long.MIN_VALUE, Long.MAX_VALUE);
    } catch (QueryParseException expected) {
      return; // a clear error is the right answer to a bad query
    }
    String written = SplText.pipeline(commands);
    List<Command> again;
    try {
      again = PARSER.parse(written).commands();
    } catch (QueryParseException e) {
      throw new AssertionError(query + " was written as " + written + ", which fails to parse", e);
    }
    if (!Trees.withoutPositions(again).equals(Trees.withoutPositions(commands))) {
      throw new AssertionError(query + " was written as " + written + ", which parses otherwise");
    }
  }
}
