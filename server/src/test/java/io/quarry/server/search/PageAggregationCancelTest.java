package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.exec.OutputSource;
import io.quarry.ql.exec.SearchResources;
import io.quarry.ql.parser.Parser;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A cancelled batch search's {@code stats} with many groups ({@link PageAggregation#answer}): the
 * partials' merge and the answer shared with a pool stop at the cancellation, throw the search's
 * {@link CancellationException} and give back every byte the groups held; not cancelled, the same
 * aggregation answers every group.
 */
class PageAggregationCancelTest {
  private static final ExecutorService POOL = Executors.newFixedThreadPool(3);
  private static final int GROUPS = 40_000; // past the shared merge's and answer's threshold

  @AfterAll
  static void shutdown() {
    POOL.shutdownNow();
  }

  @Test
  void aCancelledAnswerStopsAndReleasesItsGroups() {
    MemoryAccount memory = MemoryAccount.unbounded("search");
    PageAggregation partials = twoPartials(memory);
    assertThat(memory.used()).isPositive();
    AtomicInteger asked = new AtomicInteger();

    assertThatThrownBy(
            () -> partials.answer(null, null, POOL, 3, () -> asked.incrementAndGet() > 0))
        .isInstanceOf(CancellationException.class);

    assertThat(asked.get()).as("the merge asked whether the search was cancelled").isPositive();
    assertThat(memory.used()).as("bytes still held").isZero();
  }

  @Test
  void notCancelledItAnswersEveryGroup() {
    MemoryAccount memory = MemoryAccount.unbounded("search");
    OutputSource answer = twoPartials(memory).answer(null, null, POOL, 3, () -> false);
    int rows = 0;
    for (Page page = answer.getOutput(); page != null; page = answer.getOutput()) {
      rows += page.positionCount();
    }
    answer.close();
    assertThat(rows).isEqualTo(GROUPS);
  }

  /** Two partials over the same {@value #GROUPS} users, neither merged yet. */
  private static PageAggregation twoPartials(MemoryAccount memory) {
    StatsCommand stats =
        (StatsCommand)
            new Parser(CommandRegistry.builtIns())
                .parse("* | stats count by user")
                .commands()
                .get(1);
    PageAggregator total =
        PageAggregator.of(
            stats,
            ZoneOffset.UTC,
            new SearchResources(memory, () -> false, w -> {}).tracker("stats"),
            1024);
    PageAggregation partials = new PageAggregation(total, () -> false);
    PageAggregator first = partials.take();
    PageAggregator second = partials.take();
    for (int from = 0; from < GROUPS; from += 1000) {
      first.addInput(users(from, 1000));
      second.addInput(users(from, 1000));
    }
    partials.put(first);
    partials.put(second);
    return partials;
  }

  private static Page users(int from, int count) {
    BytesBlock.Builder block = BytesBlock.builder(count);
    for (int u = from; u < from + count; u++) {
      byte[] bytes = ("user" + u).getBytes(StandardCharsets.UTF_8);
      block.append(bytes, 0, bytes.length);
    }
    return new Page(
        new Schema(List.of(new Schema.Column("user", DataType.STRING))), List.of(block.build()));
  }
}
