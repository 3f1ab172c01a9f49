package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link ReduceChain}: runs of commands over different inputs, and steps between them, as one
 * pulled chain — a head in an earlier run stops the source, a step that writes every row is not
 * stopped by a head after it nor by an operator after it finished early, while the commands after
 * it stop once their answer is complete; the stages' stats count each run's commands; a chain that
 * fails to build closes each step once. Input: events {@code n = 0 … 999} in pages of 10; answers
 * computed by hand.
 */
class ReduceChainTest {
  private static final Evaluator EVALUATOR =
      new Evaluator(java.time.Instant.parse("2026-01-05T00:00:00Z"), java.time.ZoneOffset.UTC);

  private static List<Page> input() {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long n = 0; n < 1000; n++) {
      rows.add(Map.of("n", n));
    }
    return TestPages.pages(TestPages.cells(rows), 10);
  }

  private static void pull(PageReduce reduce, PagesSource source) {
    try {
      reduce.pullFrom(source);
      reduce.run();
    } finally {
      reduce.close();
    }
  }

  @Test
  void aRunOverEventsThenAnAggregationOverResultsIsOneChain() {
    List<Command> commands = PageRun.commands("* | head 25 | stats count | eval k=count*2");
    StageStats stats = new StageStats(commands.stream().map(Command::name).toList());
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        ReduceChain.of(EVALUATOR, stats, 1024)
            .overEvents(commands.subList(0, 1), 0)
            .overResults(commands.subList(1, 3), 1)
            .into(
                page -> {
                  stats.out(page.positionCount()); // as the search's answer counts whole pages
                  return out.add(page);
                });
    PagesSource source = PagesSource.of(input().iterator());
    pull(reduce, source);
    // events 0 … 24: the head's rows stop the source after three pages of ten
    assertThat(TestPages.rows(out)).containsExactly(Map.of("count", 25L, "k", 50L));
    assertThat(source.pages()).isEqualTo(3);
    assertThat(stats.stages())
        .extracting(s -> s.name() + " " + s.rowsIn() + "->" + s.rowsOut())
        .containsExactly("head 30->25", "stats 25->1", "eval 1->1");
  }

  @Test
  void aHeadAfterAWritingStepDoesNotStopItsInputButOneBeforeItDoes() {
    long[] written = {0};
    List<Command> commands = PageRun.commands("* | head 250 | head 5");
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        ReduceChain.of(EVALUATOR, new StageStats(List.of("head", "head")), 1024)
            .overEvents(commands.subList(0, 1), 0)
            .thenWriting(counting(written))
            .overEvents(commands.subList(1, 2), 1)
            .into(out::add);
    PagesSource source = PagesSource.of(input().iterator());
    pull(reduce, source);
    assertThat(TestPages.rows(out)).hasSize(5);
    assertThat(written[0]).isEqualTo(250); // every row the head before it let through
    assertThat(source.pages()).isEqualTo(25);
  }

  @Test
  void aFullAnswerStopsTheSource() {
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        ReduceChain.of(EVALUATOR, new StageStats(List.of("eval")), 1024)
            .overEvents(PageRun.commands("* | eval k=1"), 0)
            .into(
                page -> {
                  out.add(page);
                  return out.size() < 4; // the answer is full after its fourth page
                });
    PagesSource source = PagesSource.of(input().iterator());
    pull(reduce, source);
    assertThat(out).hasSize(4);
    assertThat(source.pages()).isEqualTo(4);
  }

  @Test
  void aChainIsOneReducesOnly() {
    ReduceChain chain =
        ReduceChain.of(EVALUATOR, new StageStats(List.of("eval")), 1024)
            .overEvents(PageRun.commands("* | eval k=1"), 0);
    chain.into(page -> true).close();
    assertThatThrownBy(() -> chain.into(page -> true)).isInstanceOf(IllegalStateException.class);
  }

  private static PageTransformOperator counting(long[] written) {
    return new PageTransformOperator() {
      @Override
      protected Page process(Page page) {
        written[0] += page.positionCount();
        return page;
      }
    };
  }

  @Test
  void aWrittenStepWritesEveryRowWhateverFinishesAfterIt() {
    long[] written = {0};
    List<Command> commands = PageRun.commands("* | head 250");
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        ReduceChain.of(EVALUATOR, new StageStats(List.of("head")), 1024)
            .overEvents(commands, 0)
            .thenWriting(counting(written))
            .then(new DriverTest.FirstPageOnly()) // finished after one page, as a plugin head
            .into(out::add);
    pull(reduce, PagesSource.of(input().iterator()));
    assertThat(written[0]).as("rows written (head 250 before the writer)").isEqualTo(250);
  }

  @Test
  void theStagesAfterAWrittenStepStopOnceTheirAnswerIsComplete() {
    long[] written = {0};
    List<Command> commands = PageRun.commands("* | head 250 | eval k=1 | head 5");
    StageStats stats = new StageStats(commands.stream().map(Command::name).toList());
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        ReduceChain.of(EVALUATOR, stats, 1024)
            .overEvents(commands.subList(0, 1), 0)
            .thenWriting(counting(written))
            .overEvents(commands.subList(1, 3), 1)
            .into(out::add);
    pull(reduce, PagesSource.of(input().iterator()));
    assertThat(written[0]).isEqualTo(250);
    assertThat(TestPages.rows(out)).hasSize(5);
    // the head after the eval had its 5 rows from the first page: the eval's work after that is
    // wasted, and its stage's cost in the job's stats counts every written row
    assertThat(stats.stages()).extracting(s -> s.name() + " " + s.rowsIn()).contains("eval 10");
  }

  /**
   * As {@code PluginOverEvents.chain} and {@code RenameOverEvents.chain} build: steps added, then a
   * run whose operator fails to make (a lookup whose table is missing), the caller closing what was
   * built. The failed run closed every step already: each is closed once, and the chain takes no
   * more steps.
   */
  @Test
  void aChainThatFailsToBuildClosesEachStepOnce() {
    int[] closed = {0};
    Operator step =
        new PageTransformOperator() {
          @Override
          protected Page process(Page page) {
            return page;
          }

          @Override
          public void close() {
            closed[0]++;
          }
        };
    ReduceChain chain = ReduceChain.of(EVALUATOR, new StageStats(List.of("eval", "lookup")), 1024);
    try {
      chain.overEvents(PageRun.commands("* | eval k=1"), 0).then(step);
      chain.marking(PageRun.commands("* | lookup nosuch.csv a OUTPUT b"), 1, Map.of());
    } catch (RuntimeException e) {
      RuntimeException thrown = chain.closeBuilt(e); // PluginOverEvents.chain's catch
      assertThat(thrown).hasMessageContaining("nosuch");
    }
    assertThat(closed[0]).as("times the plugin-like step was closed").isEqualTo(1);
    assertThatThrownBy(() -> chain.then(step)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> chain.into(page -> true)).isInstanceOf(IllegalStateException.class);
  }

  /**
   * Two writers: the first takes every row its head lets through (250), the second every row the
   * head between them lets through (100); the commands after the second stop once the head after
   * them has its rows, and the gate after the first stops once the head between has its rows.
   */
  @Test
  void eachWriterTakesWhatTheHeadsBeforeItLetThroughAndNoMore() {
    long[] first = {0};
    long[] second = {0};
    List<Command> commands = PageRun.commands("* | head 250 | head 100 | eval k=1 | head 5");
    StageStats stats = new StageStats(commands.stream().map(Command::name).toList());
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        ReduceChain.of(EVALUATOR, stats, 1024)
            .overEvents(commands.subList(0, 1), 0)
            .thenWriting(counting(first))
            .overEvents(commands.subList(1, 2), 1)
            .thenWriting(counting(second))
            .overEvents(commands.subList(2, 4), 2)
            .into(out::add);
    PagesSource source = PagesSource.of(input().iterator());
    pull(reduce, source);
    assertThat(first[0]).isEqualTo(250);
    assertThat(second[0]).isEqualTo(100);
    assertThat(TestPages.rows(out)).hasSize(5);
    assertThat(source.pages()).isEqualTo(25);
    assertThat(stats.stages())
        .extracting(s -> s.name() + " " + s.rowsIn())
        .containsExactly("head 250", "head 100", "eval 10", "head 10");
  }
}
