package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Page;
import java.util.function.Consumer;

/**
 * The end of every search's pipeline: hands on the answer's pages and counts their rows (the
 * search's result count and the {@code search.maxResultRows} cut read it). Pages made cell by cell
 * are built by {@link PageBuilder}.
 */
public final class PageCollector {
  private final Consumer<Page> consumer;
  private long rows;

  public PageCollector(Consumer<Page> consumer) {
    this.consumer = requireNonNull(consumer, "consumer is null");
  }

  /** Hands on a page of results and counts its rows. */
  public void emit(Page page) {
    rows += page.positionCount();
    consumer.accept(page);
  }

  /** Rows seen so far. */
  public long rows() {
    return rows;
  }
}
