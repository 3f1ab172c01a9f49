package io.quarry.codecs.store;

/** Receives events from a scan, newest first. */
@FunctionalInterface
public interface EventVisitor {

  /**
   * @return false to stop the scan
   */
  boolean visit(StoredEvent event);

  /**
   * Whether a parallel scan may hand this visitor a block's in-range events as {@link EventRun}s
   * ({@link #visit(EventRun)}) instead of one {@link StoredEvent} at a time; asked once per slice.
   * Runs come only from blocks that lie wholly in the scan's range; other events are visited one by
   * one.
   */
  default boolean takesRuns() {
    return false;
  }

  /**
   * Visits the events of {@code run}, in order, as {@link #visit(StoredEvent)} would one by one; a
   * visitor stopping inside the run says how many of its events it visited ({@link
   * EventRun#stoppedAfter}).
   *
   * @return false to stop the scan
   */
  default boolean visit(EventRun run) {
    for (int i = 0; i < run.size(); i++) {
      if (!visit(run.event(i))) {
        run.stoppedAfter(i + 1);
        return false;
      }
    }
    return true;
  }

  /**
   * Called once when the scan ends, while its segments are still open: a visitor that holds events
   * reads their {@code _raw} here at the latest.
   */
  default void finish() {}

  /**
   * Called once when the scan (or the slice of a parallel scan) ends, after {@link #finish} or
   * instead of it when the scan failed: releases what the visitor holds. It runs on the scan's
   * thread, so nothing else uses the visitor then.
   */
  default void close() {}

  /**
   * Whether the visitor may hold an event, or anything that reads its block (a view of its text),
   * after {@link #visit} returned. A visitor that takes only copies (strings, values copied into
   * pages) answers false, and a parallel scan then hands each block's decoded journal bytes back
   * once its events are visited, so the next block is decoded into them.
   */
  default boolean keepsEvents() {
    return true;
  }

  /**
   * A faster way through one slice of a parallel scan (or one segment of a time-ordered scan), or
   * null: documents the shortcut takes are never loaded as events (a visitor that only counts
   * keyword values reads their doc-values ordinals; one that deduplicates skips values it has
   * seen). Called once per slice or segment, before its first document; documents come in
   * increasing doc-id order within it (a time-ordered scan interleaves segments, newest event
   * first).
   */
  default DocShortcut shortcut(org.apache.lucene.index.LeafReader reader)
      throws java.io.IOException {
    return null;
  }

  /**
   * A faster way through one slice or segment of block documents ({@link BucketFormat#BLOCKS}), or
   * null: called once per slice or segment, before its first block. The scan offers it each
   * candidate block whose every event lies inside the scan's time range, in increasing doc-id order
   * (a time-ordered scan: newest block first, when it would open it); a block it takes is never
   * decoded (a visitor that only counts reads the block's {@link BlockValueCounts}). Blocks not
   * offered, or answered {@link DocShortcut#VISIT}, have their events visited.
   */
  default BlockShortcut blockShortcut(org.apache.lucene.index.LeafReader reader)
      throws java.io.IOException {
    return null;
  }

  /** See {@link #blockShortcut}. */
  @FunctionalInterface
  interface BlockShortcut {
    /**
     * Handles block document {@code doc}, whose {@code events} events lie in {@code [oldest,
     * newest]}, inside the scan's time range: {@link DocShortcut#TAKEN}, {@link DocShortcut#VISIT}
     * or {@link DocShortcut#STOP}.
     */
    int take(int doc, int events, long oldest, long newest) throws java.io.IOException;

    /**
     * Takes all block documents {@code [from, to)} of the segment at once, {@code events} events —
     * called when every block of the segment lies in the scan's range and no block is deleted — or
     * returns false to have them offered one by one. Blocks the scan's query does not select are
     * among them: the visitor counts only what surely matches. The answer must be the same for
     * every slice of a segment.
     */
    default boolean takeAll(int from, int to, long events) throws java.io.IOException {
      return false;
    }
  }

  /** See {@link #shortcut}. */
  interface DocShortcut {
    /** The document was handled. */
    int TAKEN = 0;

    /** The document needs the ordinary path: it is loaded and {@link #visit visited}. */
    int VISIT = 1;

    /** Stop the slice. */
    int STOP = 2;

    /** Handles one matching document: {@link #TAKEN}, {@link #VISIT} or {@link #STOP}. */
    int take(int doc) throws java.io.IOException;

    /**
     * Takes all documents {@code [from, to)} of the segment at once — called when the scan's query
     * matches every one of them (no filter, no time bound, no deletions) — or returns false to have
     * them taken one by one. The answer must be the same for every slice of a segment.
     */
    default boolean takeAll(int from, int to) throws java.io.IOException {
      return false;
    }
  }
}
