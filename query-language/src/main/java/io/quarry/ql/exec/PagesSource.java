package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.Page;
import java.util.Iterator;
import java.util.function.IntPredicate;

/**
 * A pulled source over pages made one at a time by an iterator — a generator's ({@code
 * makeresults}, {@code inputlookup}, {@code dbinspect}, {@code help}), a metric command's answer,
 * an aggregation's merged groups — for a {@link PageReduce} in pull mode ({@link
 * PageReduce#pullFrom}): each {@code getOutput} makes the next page only then, so a reduce chain
 * whose {@code head} has its rows finishes this source and no page past it is made. Before taking
 * each next page it asks {@code stop} (the search's control: cancelled, out of time or memory),
 * given the positions of the page handed before (0 before the first; the last page's once the pages
 * are over): once that says stop, or throws, no page is taken — a page this source took is always
 * handed on, so it is the chain's to give back — and the source is finished.
 */
public final class PagesSource implements Operator {
  private final Iterator<Page> pages;
  private final IntPredicate stop;
  private boolean finished;
  private int unasked; // the positions of the page handed last, not yet given to stop
  private long pagesHanded;
  private long positionsHanded;

  /**
   * The pages of {@code pages}, until {@code stop} answers true, asked before each page is taken
   * with the positions handed since it was asked last.
   */
  public PagesSource(Iterator<Page> pages, IntPredicate stop) {
    this.pages = requireNonNull(pages, "pages is null");
    this.stop = requireNonNull(stop, "stop is null");
  }

  /** The pages of {@code pages}, all of them (unless the chain wants no more). */
  public static PagesSource of(Iterator<Page> pages) {
    return new PagesSource(pages, positions -> false);
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
    if (finished) {
      return null;
    }
    int positions = unasked;
    unasked = 0;
    finished = true; // unless stop lets the next page through
    if (stop.test(positions) || !pages.hasNext()) { // asked before a page is made or taken
      return null;
    }
    finished = false;
    Page page = pages.next();
    unasked = page.positionCount();
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
    return finished || (unasked == 0 && !pages.hasNext()); // else stop is told the last page
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
