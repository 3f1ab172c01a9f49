package io.quarry.client;

import java.util.List;

/**
 * One bucket of an index as {@code GET /api/v1/indexes} lists it.
 *
 * @param state {@code hot}, {@code rolling}, {@code warm} or {@code failed}
 * @param layout the layout the bucket recorded when it was made: {@code events}, {@code blocks},
 *     {@code blocks 2} (postings), {@code blocks 3} (term filters); from a server before session
 *     41, its format without a version
 * @param segments the segments a search of it reads now (0 from a server that does not say)
 * @param documents their documents: events, or blocks of events
 * @param journal its segments' journal by kind (empty from a server that does not say)
 */
public record BucketSummary(
    long id,
    String state,
    long events,
    long bytes,
    String layout,
    int segments,
    long documents,
    List<JournalSummary> journal) {
  public BucketSummary {
    journal = List.copyOf(journal);
  }

  /** Segments of the bucket whose journal is fast: written by flushes, waiting for compaction. */
  public int fastSegments() {
    return journal.stream()
        .filter(kind -> !kind.compact())
        .mapToInt(JournalSummary::segments)
        .sum();
  }
}
