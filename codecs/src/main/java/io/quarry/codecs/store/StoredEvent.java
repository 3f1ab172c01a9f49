package io.quarry.codecs.store;

import static java.util.Objects.requireNonNull;

/** An event read back from an index, with the name of the index it lives in. */
public record StoredEvent(String index, Event event) {
  public StoredEvent {
    requireNonNull(index, "index is null");
    requireNonNull(event, "event is null");
  }
}
