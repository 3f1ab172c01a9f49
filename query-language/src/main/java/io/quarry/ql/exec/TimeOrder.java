package io.quarry.ql.exec;

/** What both engines answer from a group's latest and earliest value and their times. */
public final class TimeOrder {
  private TimeOrder() {}

  /**
   * {@code rate(x)}: (latest − earliest value) / (their times' difference in seconds); null when a
   * value is missing or not a number, or both have one time.
   */
  public static Object rate(Object newest, long newestMicros, Object oldest, long oldestMicros) {
    if (newest == null || oldest == null || newestMicros == oldestMicros) {
      return null;
    }
    double latest = Values.toNumber(newest);
    double earliest = Values.toNumber(oldest);
    if (Double.isNaN(latest) || Double.isNaN(earliest)) {
      return null;
    }
    return (latest - earliest) / ((newestMicros - oldestMicros) / 1_000_000d);
  }
}
