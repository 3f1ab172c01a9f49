package io.quarry.codecs.store;

/** Receives events from a scan, newest first. */
@FunctionalInterface
public interface EventVisitor {

  /**
   * @return false to stop the scan
   */
  boolean visit(StoredEvent event);
}
