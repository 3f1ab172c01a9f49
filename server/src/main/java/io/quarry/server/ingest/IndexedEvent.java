package io.quarry.server.ingest;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.Event;

/**
 * An event with the index it goes to.
 *
 * @param asciiRaw the bytes of the event's {@code _raw} when it is ASCII and they are at hand (one
 *     byte a character, stored as they are); null otherwise
 */
public record IndexedEvent(String index, Event event, byte[] asciiRaw) {
  public IndexedEvent {
    requireNonNull(index, "index is null");
    requireNonNull(event, "event is null");
  }

  /** An event whose {@code _raw} bytes the store makes. */
  public IndexedEvent(String index, Event event) {
    this(index, event, null);
  }
}
