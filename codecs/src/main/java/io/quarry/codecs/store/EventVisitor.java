package io.quarry.codecs.store;

/** Receives events from a scan, newest first. */
@FunctionalInterface
public interface EventVisitor {

  /**
   * @return false to stop the scan
   */
  boolean visit(StoredEvent event);

  /**
   * Called once when the scan ends, while its segments are still open: a visitor that holds events
   * reads their {@code _raw} here at the latest.
   */
  default void finish() {}
}
