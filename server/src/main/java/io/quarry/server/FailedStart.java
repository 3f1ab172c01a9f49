package io.quarry.server;

/**
 * What a failed start does with what it opened: closes each, in order, even when one before it
 * fails, every close's failure added to the start's as suppressed (the start's own failure is the
 * one thrown), so the data directory is free for the next start.
 */
final class FailedStart {
  private FailedStart() {}

  /**
   * Closes each of {@code opened} (nulls skipped), their failures suppressed in {@code failure}.
   */
  static void close(Exception failure, AutoCloseable... opened) {
    for (AutoCloseable resource : opened) {
      if (resource != null) {
        try {
          resource.close();
        } catch (Exception e) {
          failure.addSuppressed(e);
        }
      }
    }
  }
}
