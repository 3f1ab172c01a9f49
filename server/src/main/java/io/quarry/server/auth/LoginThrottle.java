package io.quarry.server.auth;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.server.http.ApiException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Slows password guessing: a user name that fails {@value #FAILURES} password checks within {@link
 * #WINDOW} is locked for {@link #FIRST_LOCK}, doubling with each lock in a row up to {@link
 * #LONGEST_LOCK}; while locked every attempt with that name — right password or not — is answered
 * 429 with Retry-After without checking it (checking would tell the guesser when a guess is right).
 * A successful check clears the name's record. Unknown names are throttled alike, so the answers do
 * not tell which users exist. At most {@value #TRACKED} names are tracked; past that the oldest
 * record goes.
 */
final class LoginThrottle {
  static final int FAILURES = 5;
  static final Duration WINDOW = Duration.ofMinutes(1);
  static final Duration FIRST_LOCK = Duration.ofSeconds(30);
  static final Duration LONGEST_LOCK = Duration.ofMinutes(5);
  static final int TRACKED = 10_000;

  private static final class Record {
    long windowStart;
    int failures;
    int locks; // locks in a row, for the doubling
    boolean locked; // lockedUntil is set (nanoTime values can be negative: no sentinel value)
    long lockedUntil;

    boolean lockedAt(long now) {
      return locked && lockedUntil - now > 0;
    }
  }

  private final LongSupplier nanoTime;
  private final Map<String, Record> records =
      new LinkedHashMap<>(16, 0.75f, true); // guarded by this

  LoginThrottle(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
  }

  /**
   * @throws ApiException 429 with Retry-After while {@code user} is locked
   */
  synchronized void check(String user) {
    Record record = records.get(user);
    if (record == null) {
      return;
    }
    long now = nanoTime.getAsLong();
    if (record.lockedAt(now)) {
      long wait = record.lockedUntil - now;
      long seconds = Math.max(1, Duration.ofNanos(wait).toSeconds() + 1);
      throw new ApiException(
          HttpResponseStatus.TOO_MANY_REQUESTS,
          "TOO_MANY_FAILED_LOGINS",
          "Too many failed logins for this user; try again in " + seconds + " s",
          Map.of(),
          Map.of("Retry-After", Long.toString(seconds)));
    }
  }

  synchronized void failed(String user) {
    long now = nanoTime.getAsLong();
    Record record = records.computeIfAbsent(user, u -> new Record());
    if (records.size() > TRACKED) {
      // the least recently touched record that holds no lock and no lock history: evicting a
      // locked name would let a guesser wipe its lock with failures under random names
      var oldest = records.entrySet().iterator();
      while (oldest.hasNext()) {
        Record candidate = oldest.next().getValue();
        if (candidate != record && candidate.locks == 0 && !candidate.lockedAt(now)) {
          oldest.remove();
          break;
        }
      }
    }
    if (record.failures == 0 || now - record.windowStart > WINDOW.toNanos()) {
      record.windowStart = now;
      record.failures = 0;
    }
    if (++record.failures >= FAILURES) {
      long lock =
          Math.min(FIRST_LOCK.toNanos() << Math.min(record.locks, 10), LONGEST_LOCK.toNanos());
      record.lockedUntil = now + lock;
      record.locked = true;
      record.locks++;
      record.failures = 0;
    }
  }

  synchronized void succeeded(String user) {
    records.remove(user);
  }
}
