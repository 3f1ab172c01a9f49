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

class StageStatsTest {
  @Test
  void countsRowsInAndOutOfEveryStage() {
    List<Command> commands =
        new Parser(CommandRegistry.builtIns())
            .parse("* | where n > 10 | eval m=n*2 | stats count by even | head 1")
            .commands();
    List<Command> pipeline = commands.subList(1, commands.size());
    StageStats stats = new StageStats(pipeline.stream().map(Command::name).toList());
    List<io.quarry.plugin.api.data.Page> pages = new ArrayList<>();
    RowSink sink =
        Pipelines.build(
            pipeline,
            stats.end(new PageCollector(10, pages::add)),
            new Evaluator(Instant.EPOCH, ZoneOffset.UTC),
            stats,
            0);
    for (int n = 0; n < 100; n++) {
      sink.accept(TestRow.of("r", "n", (long) n, "even", n % 2 == 0 ? "yes" : "no"));
    }
    sink.finish();
    assertThat(stats.stages())
        .extracting(s -> s.name() + " " + s.rowsIn() + "->" + s.rowsOut())
        .containsExactly(
            "where 100->89",
            "eval 89->89",
            "stats 89->1",
            "head 1->1"); // head stops stats after one
    assertThat(stats.stages()).allSatisfy(s -> assertThat(s.time().isNegative()).isFalse());
  }
}
