package io.quarry.codecs.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * How one index adds a batch of events to a bucket, in the bucket's layout: a Lucene document per
 * event ({@link EventDocuments}) or per block of events ({@link BlockDocuments}). Used by the
 * index's adds ({@link IndexWrites}) and by the log's replay ({@link LogRecovery}).
 */
final class BatchLayouts {
  private final BlockDocuments blocks;
  private final EventDocuments eventDocuments; // the event layout's documents

  BatchLayouts(String name, IndexOptions options) {
    this.blocks = new BlockDocuments(options);
    this.eventDocuments = new EventDocuments(name, options);
  }

  /** The block layout's documents (also what {@code quarry reindex} writes). */
  BlockDocuments blocks() {
    return blocks;
  }

  /**
   * The events with their ASCII texts' bytes known ({@link Event#withAsciiBytes}): the list itself
   * when every event holds its range already (a broken body's), else a copy.
   */
  static List<Event> withAsciiBytes(List<Event> events) {
    List<Event> out = null;
    for (int i = 0; i < events.size(); i++) {
      Event event = events.get(i);
      Event known = event.withAsciiBytes();
      if (known != event && out == null) {
        out = new ArrayList<>(events.subList(0, i));
      }
      if (out != null) {
        out.add(known);
      }
    }
    return out == null ? events : out;
  }

  /** Adds a batch to a bucket in its layout: a document per event, or per block of events. */
  void addTo(Bucket target, List<Event> events, long firstSequence) throws IOException {
    if (target.format() == BucketFormat.BLOCKS) {
      blocks.add(target, events, firstSequence);
      return;
    }
    for (int i = 0; i < events.size(); i++) {
      Event event = events.get(i);
      long sequence = firstSequence + i;
      target.add(
          eventDocuments.of(event, sequence), event.timeMicros(), event.timeMicros(), 1, sequence);
    }
  }
}
