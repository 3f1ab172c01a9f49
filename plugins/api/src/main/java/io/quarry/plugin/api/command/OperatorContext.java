package io.quarry.plugin.api.command;

import io.quarry.plugin.api.data.BlockFactory;
import java.time.Instant;
import java.time.ZoneId;
import java.util.concurrent.CancellationException;

/** What an operator may use from the search running it. */
public interface OperatorContext {

  /** Builders for output blocks, accounted against the search's memory limit. */
  BlockFactory blockFactory();

  /** Whether the search was cancelled or ran out of time; long loops should check it. */
  boolean isCancelled();

  /**
   * @throws CancellationException when {@link #isCancelled}
   */
  default void checkCancelled() {
    if (isCancelled()) {
      throw new CancellationException("search cancelled");
    }
  }

  /** Adds a warning to the search's messages (shown with its results). */
  void warn(String message);

  /** The search's time ({@code now()} in {@code eval}). */
  Instant now();

  /** The zone the search formats and buckets time in. */
  ZoneId zone();
}
