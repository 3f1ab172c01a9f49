package io.quarry.server.ingest;

import io.quarry.codecs.store.EventStore;

/**
 * The event store behind an {@link IngestService}, for tests outside this package (the service's
 * own accessor is package-private: the store is no part of the server's API).
 */
public final class IngestStores {
  private IngestStores() {}

  /** {@code ingest}'s event store. */
  public static EventStore of(IngestService ingest) {
    return ingest.store();
  }
}
