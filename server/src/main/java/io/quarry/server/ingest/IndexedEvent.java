package io.quarry.server.ingest;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.Event;

/** An event with the index it goes to. */
public record IndexedEvent(String index, Event event) {
  public IndexedEvent {
    requireNonNull(index, "index is null");
    requireNonNull(event, "event is null");
  }
}
