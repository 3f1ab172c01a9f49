package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import java.util.function.Consumer;

/**
 * {@code stats} as a stage of a reduce ({@link PageReduce}): after a generator ({@code makeresults
 * | stats …}) or after another aggregation, its input pages are fed to one {@link
 * HashAggregationOperator} — no partials, the stream is already one — whose answer's pages are
 * handed on once the input ends.
 */
final class AggregationStage implements PageChain.Stage {
  private final HashAggregationOperator aggregation;

  AggregationStage(StatsCommand command, MemoryTracker memory, int pageSize) {
    this.aggregation = new HashAggregationOperator(command, memory, pageSize);
  }

  /** Whether every aggregation of {@code command} has a page implementation. */
  static boolean supports(StatsCommand command) {
    return HashAggregationOperator.supports(command);
  }

  @Override
  public void add(Page page, Consumer<Page> out) {
    aggregation.addInput(page);
  }

  @Override
  public void finish(Consumer<Page> out) {
    aggregation.finish();
    for (Page page = aggregation.getOutput(); page != null; page = aggregation.getOutput()) {
      out.accept(page);
    }
  }

  @Override
  public void close() {
    aggregation.close();
  }
}
