package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.MemoryLimitExceededException;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.SortCommand;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.parser.Parser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Memory the page engine's holding operators count against the search, and its limit. */
class MemoryAccountingTest {
  private static StatsCommand stats(String text) {
    Command command = new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
    return (StatsCommand) command;
  }

  /** {@code groups} rows of groups {@code group0…} with values {@code value<from>…}, one page. */
  private static void feed(PageAggregator operator, int groups, int from) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < groups; i++) {
      rows.add(Map.of("g", "group" + i, "v", "value" + (from + i)));
    }
    operator.addInput(TestPages.page(TestPages.cells(rows)));
  }

  @Test
  void mergedPartialsAreCountedOnceAndReleasedAtTheEnd() {
    MemoryAccount account = MemoryAccount.unbounded("test");
    SearchResources resources = new SearchResources(account, () -> false, w -> {});
    HashAggregationOperator total =
        new HashAggregationOperator(stats("stats dc(v) by g"), resources.tracker("stats"), 1024);
    for (int p = 0; p < 8; p++) {
      PageAggregator partial = total.newPartial();
      feed(partial, 5000, 0); // the same groups and values in every partial
      total.merge(partial);
    }
    long afterMerges = account.used();
    PageAggregator single = total.newPartial();
    feed(single, 5000, 0);
    long oneSlice = account.used() - afterMerges;
    // eight partials with the same content cost what one does (plus chunk rounding), not eight
    assertThat(afterMerges).isLessThan(2 * oneSlice + 2 * MemoryTracker.CHUNK);
    single.close();
    total.close();
    assertThat(account.used()).as("released at the end").isZero();
  }

  @Test
  void overTheLimitTheOperatorThrowsNamingItself() {
    MemoryAccount account = new MemoryAccount("search (search.maxMemoryBytes)", 300_000);
    SearchResources resources = new SearchResources(account, () -> false, w -> {});
    PageSort sort =
        new PageSort(
            (SortCommand) PageRun.commands("* | sort 0 v").get(0), 1024, resources.tracker("sort"));
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      rows.add(Map.of("v", (long) i));
    }
    assertThatThrownBy(
            () -> {
              for (Page page : TestPages.pages(TestPages.cells(rows), 1024)) {
                sort.addInput(page);
              }
            })
        .isInstanceOf(MemoryLimitExceededException.class)
        .hasMessageContaining("sort needs");
  }
}
