package io.quarry.codecs.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A UTC clock a test sets and moves forward (bucket ages, retention), read safely from the store's
 * threads. Millisecond resolution, as the stores read it.
 */
public final class SettableClock extends Clock {
  private final AtomicLong millis;

  public SettableClock(Instant start) {
    this.millis = new AtomicLong(start.toEpochMilli());
  }

  /** Moves the clock forward (or back, with a negative duration). */
  public void advance(Duration by) {
    millis.addAndGet(by.toMillis());
  }

  public void set(Instant now) {
    millis.set(now.toEpochMilli());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public long millis() {
    return millis.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis.get());
  }
}
