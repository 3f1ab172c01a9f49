package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.exec.QueuedPageOperator;
import java.util.function.Consumer;

/**
 * A step of a pulled chain ({@link io.quarry.ql.exec.ReduceChain#then}) over something that takes
 * its pages pushed and hands its own to a sink: an {@link EventListing} laying the rows out anew as
 * batches (every field of each row, its changes replayed), or the renames of a wildcard {@code
 * rename} whose rows' names are renamed alongside ({@link RenameOverEvents#listedNames}). Each page
 * pulled in is pushed on at once; what the sink ({@link #take}) receives waits in the queue until
 * the driver pulls it, and no page is taken while one waits; once the input is over the pushed
 * thing is finished and hands on what it still holds.
 */
final class PushedOperator extends QueuedPageOperator {
  private Consumer<Page> push;
  private Runnable finish;
  private Runnable close = () -> {};

  /** The sink to give the thing pushed into: its pages are this operator's output. */
  boolean take(Page page) {
    emit(page);
    return true;
  }

  /**
   * Pushes each input page into {@code push}; {@code finish} once the input is over; {@code close}
   * when the chain closes.
   */
  PushedOperator into(Consumer<Page> push, Runnable finish, Runnable close) {
    this.push = requireNonNull(push, "push is null");
    this.finish = requireNonNull(finish, "finish is null");
    this.close = requireNonNull(close, "close is null");
    return this;
  }

  /**
   * A listing's step: its input laid out by {@code listing}, made with {@link #take} as its sink.
   */
  PushedOperator into(EventListing listing) {
    return into(listing::add, listing::finish, () -> {});
  }

  @Override
  protected void process(Page page) {
    push.accept(page);
  }

  @Override
  protected void onFinish() {
    finish.run();
  }

  @Override
  public void close() {
    close.run();
  }
}
