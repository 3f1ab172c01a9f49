package io.quarry.server.sourcetype;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * The last timestamp one thread parsed from bytes, and the instant it gave, so an event whose
 * timestamp text is the same bytes at its place is answered without a parse. Logs repeat their
 * timestamp text: a server writing a hundred events a second writes each second's text a hundred
 * times, and the access-log reference log's parse was ~5% of ingest CPU.
 *
 * <p>Exact, not a heuristic: a parse of a {@link StrptimeFormat} at position {@code at} with bound
 * {@code limit} is a function of the characters it reads, of which positions it checks against
 * {@code limit}, of the rule (format, zone), and of {@code now} (a format without a year or date
 * takes them from it). {@link StrptimeMatch#LOOK_PAST} bounds how far past the end of its match a
 * format ever reads or checks. So what is remembered is the window {@code [at, at + n)} with {@code
 * n = min(limit - at, matched + LOOK_PAST)}, and a later parse is answered from memory only when it
 * is the same rule, the same automatic-recognition hint (the very object, so another thread
 * replacing it is a miss), the same {@code now}, the same {@code n} bytes at its {@code at}, and
 * the same room: equal {@code limit - at} when the window ran into the limit, else at least {@code
 * n} (every check against the limit then answered "inside" both times). Such a parse reads and
 * checks exactly what the remembered one did, so it gives what the remembered one gave. Only parses
 * that gave an instant are remembered. {@code TimestampMemoTest} compares it with a fresh parse.
 */
final class TimestampMemo {
  /** What {@link #recall} answers when memory cannot: no instant is {@link Long#MIN_VALUE}. */
  static final long MISS = Long.MIN_VALUE;

  private TimestampRule rule;
  private Object hint;
  private Instant now;
  private byte[] window = new byte[64];
  private int length;
  private boolean limited;
  private long micros;
  private int hits;

  /**
   * The instant of the parse at {@code text[at]} with {@code room = limit - at} characters to read,
   * if it is the remembered one, else {@link #MISS}.
   *
   * @param hint the automatic-recognition hint the parse follows, null for the rule's own format
   */
  long recall(TimestampRule rule, Object hint, byte[] text, int at, int room, Instant now) {
    if (rule != this.rule || hint != this.hint || (limited ? room != length : room < length)) {
      return MISS;
    }
    if (!Arrays.equals(text, at, at + length, window, 0, length)
        || !Objects.equals(now, this.now)) {
      return MISS;
    }
    hits++;
    return micros;
  }

  /** How many parses memory answered (for tests and benchmarks). */
  int hits() {
    return hits;
  }

  /**
   * Remembers that the parse at {@code text[at]}, with {@code room} characters to read, matched
   * {@code matched} of them and gave {@code micros}.
   */
  void remember(
      TimestampRule rule,
      Object hint,
      byte[] text,
      int at,
      int room,
      int matched,
      Instant now,
      long micros) {
    int seen = matched + StrptimeMatch.LOOK_PAST;
    this.limited = room < seen;
    this.length = limited ? room : seen;
    if (window.length < length) {
      window = new byte[Math.max(length, 2 * window.length)];
    }
    System.arraycopy(text, at, window, 0, length);
    this.rule = rule;
    this.hint = hint;
    this.now = now;
    this.micros = micros;
  }
}
