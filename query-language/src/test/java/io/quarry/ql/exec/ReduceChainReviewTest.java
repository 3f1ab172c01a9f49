package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Review of the chain lane: a written step ({@link ReduceChain#thenWriting}) must see every row the
 * heads before it let through, whatever comes after it; and what comes after it should stop working
 * once its answer is complete (as TimeOrderedPages' afterTable did before: fed no more once it
 * answered false).
 */
class ReduceChainReviewTest {
  private static final Evaluator EVALUATOR =
      new Evaluator(java.time.Instant.parse("2026-01-05T00:00:00Z"), java.time.ZoneOffset.UTC);

  private static List<Page> input() {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long n = 0; n < 1000; n++) {
      rows.add(Map.of("n", n));
    }
    return TestPages.pages(TestPages.cells(rows), 10);
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

  /** A step after the writer that is finished once it passed one page (a plugin head, say). */
  private static Operator finishedAfterOnePage() {
    return new Operator() {
      private Page held;
      private boolean passed;
      private boolean finishing;

      @Override
      public boolean needsInput() {
        return held == null && !passed && !finishing;
      }

      @Override
      public void addInput(Page page) {
        held = page;
        passed = true;
      }

      @Override
      public Page getOutput() {
        Page out = held;
        held = null;
        return out;
      }

      @Override
      public void finish() {
        finishing = true;
      }

      @Override
      public boolean isFinished() {
        return held == null && (passed || finishing);
      }

      @Override
      public void close() {}
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
            .then(finishedAfterOnePage())
            .into(out::add);
    PagesSource source = PagesSource.of(input().iterator());
    try {
      reduce.pullFrom(source);
      reduce.run();
    } finally {
      reduce.close();
    }
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
    PagesSource source = PagesSource.of(input().iterator());
    try {
      reduce.pullFrom(source);
      reduce.run();
    } finally {
      reduce.close();
    }
    assertThat(written[0]).isEqualTo(250);
    assertThat(TestPages.rows(out)).hasSize(5);
    // the head after the eval had its 5 rows from the first page: the eval's work after that is
    // wasted, and its stage's cost in the job's stats counts every written row
    assertThat(stats.stages()).extracting(s -> s.name() + " " + s.rowsIn()).contains("eval 10");
  }

  /**
   * As PluginOverEvents.chain and RenameOverEvents.chain build: steps added, then a run whose
   * operator fails to make (a lookup whose table is missing or over the memory limit), the caller
   * closing what was built. ReduceChain.add already closed every step: each must be closed once.
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
  }
}
