package io.quarry.server.search;

import java.time.Duration;
import java.util.List;

/**
 * What a search did, for the caller and the job inspector.
 *
 * @param indexes the indexes searched
 * @param buckets the buckets opened
 * @param bucketsSkipped the buckets skipped by their time bounds, never opened
 * @param segments the segments opened
 * @param eventsRead events read from storage after the term index and time range
 * @param eventsMatched events that passed the search expression
 * @param rows result rows produced
 * @param exactIndexQuery whether the term index answered the search expression alone
 * @param messages warnings for the user (missing index, truncated results)
 */
public record SearchStats(
    List<String> indexes,
    int buckets,
    int bucketsSkipped,
    int segments,
    long eventsRead,
    long eventsMatched,
    long rows,
    boolean exactIndexQuery,
    Duration elapsed,
    List<String> messages) {

  public SearchStats {
    indexes = List.copyOf(indexes);
    messages = List.copyOf(messages);
  }
}
