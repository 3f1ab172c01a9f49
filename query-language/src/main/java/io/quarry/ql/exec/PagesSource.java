package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.Page;
import java.util.Iterator;
import java.util.function.Predicate;

/**
 * A pulled source over pages made one at a time by an iterator — a generator's ({@code
 * makeresults}, {@code inputlookup}, {@code dbinspect}, {@code help}), a metric command's answer,
 * an aggregation's merged groups — for a {@link PageReduce} in pull mode ({@link
 * PageReduce#pullFrom}): each {@code getOutput} makes the next page only then, so a reduce chain
 * whose {@code head} has its rows finishes this source and no page past it is made. Before handing
 * a page it asks {@code stop} (the search's control: cancelled, out of time or memory); once that
 * says stop the page is not handed and the source is finished.
 */
public final class PagesSource implements Operator {
  private final Iterator<Page> pages;
  private final Predicate<Page> stop;
  private boolean finished;
  private long pagesHanded;
  private long positionsHanded;

  /** The pages of {@code pages}, until one of them {@code stop} answers true for. */
  public PagesSource(Iterator<Page> pages, Predicate<Page> stop) {
    this.pages = requireNonNull(pages, "pages is null");
    this.stop = requireNonNull(stop, "stop is null");
  }

  /** The pages of {@code pages}, all of them (unless the chain wants no more). */
  public static PagesSource of(Iterator<Page> pages) {
    return new PagesSource(pages, page -> false);
  }

  @Override
  public boolean needsInput() {
    return false;
  }

  @Override
  public void addInput(Page page) {
    throw new UnsupportedOperationException("a page source takes no input");
  }

  @Override
  public Page getOutput() {
    if (finished || !pages.hasNext()) {
      finished = true;
      return null;
    }
    Page page = pages.next();
    if (stop.test(page)) {
      finished = true;
      return null;
    }
    pagesHanded++;
    positionsHanded += page.positionCount();
    return page;
  }

  @Override
  public void finish() {
    finished = true;
  }

  @Override
  public boolean isFinished() {
    return finished || !pages.hasNext();
  }

  @Override
  public void close() {
    finished = true;
  }

  /** The pages handed on so far. */
  public long pages() {
    return pagesHanded;
  }

  /** The positions (rows) of the pages handed on so far. */
  public long positions() {
    return positionsHanded;
  }
}
