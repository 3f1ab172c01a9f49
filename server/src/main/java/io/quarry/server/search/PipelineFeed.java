package io.quarry.server.search;

import io.quarry.codecs.store.EventVisitor;
import io.quarry.codecs.store.StoredEvent;
import io.quarry.ql.exec.Row;
import io.quarry.ql.exec.RowSink;
import io.quarry.ql.exec.StageStats;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Feeds the events of a scan into a pipeline: stops at the control, applies the per-event check of
 * a superset index query, counts matches; finishes the pipeline at the end of the scan (of
 * everything in time-ordered mode, of a slice for a batch-mode map side). A leading {@code dedup}'s
 * repeated values may be skipped unread ({@link #skipSeenValues}); the index counting shortcuts are
 * a page source of their own ({@link IndexCounting}).
 */
final class PipelineFeed implements EventVisitor {
  private final Sourcetypes sourcetypes;
  private final SearchControl control;
  private final Predicate<Row> check;
  private final RowSink sink;
  private final AtomicLong matched;
  private final ExtractionClock extraction = new ExtractionClock();
  private Runnable afterFinish = () -> {};
  private boolean extract = true;
  private long matchedHere;
  private int visited;

  PipelineFeed(
      Sourcetypes sourcetypes,
      SearchControl control,
      Predicate<Row> check,
      RowSink sink,
      AtomicLong matched) {
    this.sourcetypes = sourcetypes;
    this.control = control;
    this.check = check;
    this.sink = sink;
    this.matched = matched;
  }

  @Override
  public boolean visit(StoredEvent stored) {
    if (++visited % SearchControl.EVERY == 0 && control.readAndCheck(SearchControl.EVERY)) {
      return false;
    }
    EventRow row = new EventRow(stored, sourcetypes, extraction, extract);
    if (!check.test(row)) {
      return true;
    }
    if (blockDedup != null) {
      blockDedup.visited(stored);
    }
    matchedHere++;
    return sink.accept(row);
  }

  /** The skip of a leading {@code dedup}'s repeated values, or null. */
  private SeenValuesSkip dedupSkip;

  /** The stage the skipped events count as input of. */
  private StageStats dedupStages;

  private int dedupStage;

  /**
   * Skips events a leading {@code dedup field} would drop ({@link SeenValuesSkip}); they are
   * counted as stage {@code stage}'s input all the same.
   */
  PipelineFeed skipSeenValues(String field, StageStats stages, int stage) {
    this.dedupSkip = new SeenValuesSkip(field, control);
    this.dedupStages = stages;
    this.dedupStage = stage;
    return this;
  }

  /** The {@code dedup} skip over blocks ({@link #skipSeenValues}), once a block segment came. */
  private BlockDedup blockDedup;

  @Override
  public BlockShortcut blockShortcut(org.apache.lucene.index.LeafReader reader) throws IOException {
    if (dedupSkip != null) {
      if (blockDedup == null) {
        blockDedup = new BlockDedup(dedupSkip.field(), dedupSkip.seen(), control);
      }
      return blockDedup.shortcut(reader);
    }
    return null;
  }

  @Override
  public DocShortcut shortcut(org.apache.lucene.index.LeafReader reader) throws IOException {
    if (dedupSkip != null) {
      return dedupSkip.shortcut(reader);
    }
    return null;
  }

  @Override
  public void finish() {
    if (dedupSkip != null) {
      long blocksSkipped = blockDedup == null ? 0 : blockDedup.skipped();
      dedupStages.counted(dedupStage, dedupSkip.skipped() + blocksSkipped, 0);
      matchedHere += dedupSkip.skipped() + blocksSkipped;
      dedupSkip.reportRead();
    }
    control.read(visited % SearchControl.EVERY); // the remainder, for progress
    matched.addAndGet(matchedHere);
    sink.finish(); // buffered rows read their fields while the segments are open
    control.extracted(extraction.take());
    afterFinish.run();
  }

  /**
   * Whether events' search-time fields are extracted (the default); with {@code only}, rows hold
   * only default and index-time fields ({@code tstats}).
   */
  PipelineFeed indexedFieldsOnly(boolean only) {
    this.extract = !only;
    return this;
  }

  /** Runs {@code action} on the scan's thread once this feed has finished. */
  PipelineFeed then(Runnable action) {
    this.afterFinish = action;
    return this;
  }
}
