package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.ql.ast.Command;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rows in and out of every stage of a search on the page engine, as the job's inspector shows. */
class StageStatsTest {
  @Test
  void countsRowsInAndOutOfEveryStage() {
    List<Command> commands =
        new Parser(CommandRegistry.builtIns())
            .parse("* | where n > 10 | eval m=n*2 | stats count by even | head 1")
            .commands();
    List<Command> pipeline = commands.subList(1, commands.size());
    StageStats stats = new StageStats(pipeline.stream().map(Command::name).toList());
    List<TestRow> rows = new ArrayList<>();
    for (int n = 0; n < 100; n++) {
      rows.add(TestRow.of("r", "n", (long) n, "even", n % 2 == 0 ? "yes" : "no"));
    }
    List<io.quarry.plugin.api.data.Page> pages = new ArrayList<>();
    PageReduce reduce =
        new PageReduce(
            pipeline,
            new Evaluator(Instant.EPOCH, ZoneOffset.UTC),
            page -> {
              stats.out(page.positionCount()); // as the search's answer counts whole pages
              return pages.add(page);
            },
            stats,
            0,
            10);
    PageRun.pull(reduce, TestPages.pages(PipelineTest.cells(rows), 10));
    assertThat(stats.stages())
        .extracting(s -> s.name() + " " + s.rowsIn() + "->" + s.rowsOut())
        .containsExactly(
            "where 100->89",
            "eval 89->89",
            // n of 11..99: two groups (even yes/no) in one answer page, of which head keeps one
            // (the row engine's head stopped stats after one row: 89->1, 1->1)
            "stats 89->2",
            "head 2->1");
    assertThat(stats.stages()).allSatisfy(s -> assertThat(s.time().isNegative()).isFalse());
  }

  /**
   * The operators that finish a command's work ({@code dedup}'s {@code sortby}, the re-paging
   * before a plugin command) count into its stage without counting its rows twice.
   */
  @Test
  void helperOperatorsShareTheirCommandsStageWithoutItsRows() {
    List<Command> commands =
        new Parser(CommandRegistry.builtIns())
            .parse("* | stats count by n | dedup n sortby -n | fillnull value=0 m | head 3")
            .commands();
    List<Command> pipeline = commands.subList(1, commands.size());
    StageStats stats = new StageStats(pipeline.stream().map(Command::name).toList());
    List<TestRow> rows = new ArrayList<>();
    for (int n = 0; n < 50; n++) {
      rows.add(TestRow.of("r", "n", (long) (n % 20)));
    }
    PageReduce reduce =
        new PageReduce(
            pipeline,
            new Evaluator(Instant.EPOCH, ZoneOffset.UTC),
            page -> {
              stats.out(page.positionCount());
              return true;
            },
            stats,
            0,
            7);
    PageRun.pull(reduce, TestPages.pages(PipelineTest.cells(rows), 7));
    assertThat(stats.stages())
        .extracting(s -> s.name() + " " + s.rowsIn() + "->" + s.rowsOut())
        .containsExactly("stats 50->20", "dedup 20->20", "fillnull 20->20", "head 20->3");
  }
}
