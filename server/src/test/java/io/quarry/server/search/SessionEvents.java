package io.quarry.server.search;

/**
 * The events of the ordinal dictionary memory tests ({@code OrdinalDictionaryMemoryTest}, {@code
 * OrdinalDictionarySegmentsMemoryTest}): event {@code n} is {@link #START} + {@code n} seconds, its
 * text {@code event n}, and carries two index-time fields, its own 40-byte {@code session} (so a
 * segment's dictionary of sessions is as large as its events) and {@code level}, {@code warn} for
 * one event in {@code warnEvery}, else {@code info}.
 */
final class SessionEvents {
  /** The first event's time, in seconds: 2026-01-07T10:00:00Z. */
  static final long START = 1767780000L;

  private SessionEvents() {}

  /**
   * The HEC envelopes of events {@code from} to {@code from + count - 1} for {@code index}, one a
   * line: event {@code n} is {@code level=warn} where {@code n % warnEvery == 0}.
   */
  static String envelopes(String index, int from, int count, int warnEvery) {
    StringBuilder body = new StringBuilder();
    for (int n = from; n < from + count; n++) {
      body.append(
          String.format(
              "{\"time\":%d,\"host\":\"h\",\"sourcetype\":\"mem\",\"index\":\"%s\","
                  + "\"event\":\"event %d\",\"fields\":{\"level\":\"%s\",\"session\":\"%s\"}}%n",
              START + n,
              index,
              n,
              n % warnEvery == 0 ? "warn" : "info",
              "session-%033d".formatted(n)));
    }
    return body.toString();
  }
}
