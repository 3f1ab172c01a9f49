package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Query;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs commands on the page engine alone — {@link PageReduce}, the stages a search's answer goes
 * through — over pages built straight from field values, for the tests that check a command's
 * answer against values computed by hand. Nothing here goes through the row engine: the input pages
 * are typed column by column ({@link PageBuilder#toPage(List, List, int)}, the page builder that
 * outlives the row collector) and the answer is read from the blocks.
 */
final class PageRun {
  private static final Evaluator EVALUATOR = new Evaluator(Instant.now(), ZoneOffset.UTC);

  private PageRun() {}

  /** The commands after {@code *} of {@code query}, parsed with the built-in commands. */
  static List<Command> commands(String query) {
    Query parsed = new Parser(CommandRegistry.builtIns()).parse(query);
    return parsed.commands().subList(1, parsed.commands().size());
  }

  /**
   * The answer of {@code query}'s commands over {@code input}, the output cut into pages of at most
   * {@code pageSize} positions where a stage pages its own output; fails the test when the page
   * engine has no stage for some command.
   */
  static List<Page> run(String query, List<Page> input, int pageSize, Evaluator evaluator) {
    List<Command> commands = commands(query);
    assertThat(ReduceCoverage.supportsOverEvents(commands))
        .as("every command of %s has a page stage", query)
        .isTrue();
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        new PageReduce(
            commands,
            evaluator,
            page -> {
              out.add(page);
              return true;
            },
            new StageStats(commands.stream().map(Command::name).toList()),
            0,
            pageSize);
    for (Page page : input) {
      if (!reduce.add(page)) {
        break;
      }
    }
    reduce.finish();
    reduce.close();
    return out;
  }

  /** As above, with an evaluator whose clock is the run's start, in UTC. */
  static List<Page> run(String query, List<Page> input, int pageSize) {
    return run(query, input, pageSize, EVALUATOR);
  }
}
