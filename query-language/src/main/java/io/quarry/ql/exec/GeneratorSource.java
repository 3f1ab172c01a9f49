package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.Page;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;

/**
 * A generating plugin command's operator (it takes no input: its answer comes once its input is
 * finished) as a pulled source for a {@link PageReduce} in pull mode ({@link PageReduce#pullFrom}):
 * the first pull finishes its (empty) input, each pull then takes its next page; a blocked plugin
 * is waited for by the driver. Before handing a page it asks {@code stop} (the search's control);
 * once that says stop, or the chain wants no more, the source is finished and the driver closes the
 * plugin's operator.
 */
final class GeneratorSource implements Operator {
  private final Operator generator;
  private final Predicate<Page> stop;
  private boolean started;
  private boolean stopped;
  private long positionsHanded;

  GeneratorSource(Operator generator, Predicate<Page> stop) {
    this.generator = requireNonNull(generator, "generator is null");
    this.stop = requireNonNull(stop, "stop is null");
  }

  @Override
  public CompletionStage<Void> isBlocked() {
    return stopped ? NOT_BLOCKED : generator.isBlocked();
  }

  @Override
  public boolean needsInput() {
    return false;
  }

  @Override
  public void addInput(Page page) {
    throw new UnsupportedOperationException("a generator takes no input");
  }

  @Override
  public Page getOutput() {
    if (stopped) {
      return null;
    }
    if (!started) {
      started = true;
      generator.finish(); // no input: it generates
    }
    Page page = generator.getOutput();
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
    return stopped || (started && generator.isFinished());
  }

  @Override
  public void close() {
    generator.close();
  }

  /** The positions (rows) handed on so far. */
  long positions() {
    return positionsHanded;
  }
}
