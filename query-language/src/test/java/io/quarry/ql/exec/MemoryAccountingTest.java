package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.MemoryLimitExceededException;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MemoryAccountingTest {
  private static StatsCommand stats(String text) {
    Command command = new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
    return (StatsCommand) command;
  }

  private static void feed(Aggregator operator, int groups, int from) {
    for (int i = 0; i < groups; i++) {
      operator.accept(new MapRow(Map.of("g", "group" + i, "v", "value" + (from + i))));
    }
  }

  @Test
  void mergedPartialsAreCountedOnceAndReleasedAtTheEnd() {
    MemoryAccount account = MemoryAccount.unbounded("test");
    SearchResources resources = new SearchResources(account, () -> false, w -> {});
    StatsOperator total =
        new StatsOperator(
            stats("stats dc(v) by g"), Aggregator.PARTIAL, resources.tracker("stats"));
    for (int p = 0; p < 8; p++) {
      Aggregator partial = total.newPartial();
      feed(partial, 5000, 0); // the same groups and values in every partial
      total.merge(partial);
    }
    long afterMerges = account.used();
    Aggregator single = total.newPartial();
    feed(single, 5000, 0);
    long oneSlice = account.used() - afterMerges;
    // eight partials with the same content cost what one does (plus chunk rounding), not eight
    assertThat(afterMerges).isLessThan(2 * oneSlice + 2 * MemoryTracker.CHUNK);
  }

  @Test
  void overTheLimitTheOperatorThrowsNamingItself() {
    MemoryAccount account = new MemoryAccount("search (search.maxMemoryBytes)", 300_000);
    SearchResources resources = new SearchResources(account, () -> false, w -> {});
    SortOperator sort =
        new SortOperator(
            java.util.List.of(
                new io.quarry.ql.ast.SortKey("v", false, io.quarry.ql.ast.SortKey.Mode.AUTO)),
            Long.MAX_VALUE,
            Aggregator.PARTIAL,
            resources.tracker("sort"));
    assertThatThrownBy(
            () -> {
              for (int i = 0; i < 10_000; i++) {
                sort.accept(new MapRow(Map.of("v", (long) i)));
              }
            })
        .isInstanceOf(MemoryLimitExceededException.class)
        .hasMessageContaining("sort needs");
  }
}
