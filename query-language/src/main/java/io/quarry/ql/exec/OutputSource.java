package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.Page;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;

/**
 * An operator's output once its input is over, as a pulled source for a {@link PageReduce} in pull
 * mode ({@link PageReduce#pullFrom}): a generating plugin command's operator (it takes no input),
 * or a finished aggregation's answer (the merged partials of a batch search). The first pull
 * finishes the operator's input; each pull then takes its next page; a blocked operator is waited
 * for by the driver. Before handing a page it asks {@code stop} (the search's control); once that
 * says stop, or the chain wants no more (a satisfied {@code head}), the source is finished and the
 * driver closes it, and with it the operator.
 */
public final class OutputSource implements Operator {
  private final Operator operator;
  private final Predicate<Page> stop;
  private boolean started;
  private boolean stopped;
  private long positionsHanded;

  /** {@code operator}'s pages, until one of them {@code stop} answers true for. */
  public OutputSource(Operator operator, Predicate<Page> stop) {
    this.operator = requireNonNull(operator, "operator is null");
    this.stop = requireNonNull(stop, "stop is null");
  }

  /** {@code operator}'s pages, all of them (unless the chain wants no more). */
  public static OutputSource of(Operator operator) {
    return new OutputSource(operator, page -> false);
  }

  @Override
  public CompletionStage<Void> isBlocked() {
    return stopped ? NOT_BLOCKED : operator.isBlocked();
  }

  @Override
  public boolean needsInput() {
    return false;
  }

  @Override
  public void addInput(Page page) {
    throw new UnsupportedOperationException("an output source takes no input");
  }

  @Override
  public Page getOutput() {
    if (stopped) {
      return null;
    }
    if (!started) {
      started = true;
      operator.finish(); // its input is over: it answers
    }
    Page page = operator.getOutput();
    if (page == null) {
      return null;
    }
    if (stop.test(page)) {
      stopped = true;
      return null;
    }
    positionsHanded += page.positionCount();
    return page;
  }

  @Override
  public void finish() {
    stopped = true; // the chain wants no more
  }

  @Override
  public boolean isFinished() {
    return stopped || (started && operator.isFinished());
  }

  @Override
  public void close() {
    operator.close();
  }

  /** The positions (rows) handed on so far. */
  public long positions() {
    return positionsHanded;
  }
}
