package io.quarry.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The session keys {@link Authenticator#login} hands out: random, valid until {@link #IDLE} without
 * use, at most {@value #MAX_PER_USER} per user and {@value #MAX} in all.
 */
final class SessionKeys {
  /** How long a session key stays valid after its last use. */
  static final Duration IDLE = Duration.ofHours(1);

  static final int MAX = 10_000;
  static final int MAX_PER_USER = 100;
  private static final SecureRandom RANDOM = new SecureRandom();

  private record Session(String user, long lastUse) {}

  private final Map<String, Session> sessions = new ConcurrentHashMap<>();

  /** A new session key of {@code user}, room made for it ({@link #bound}). */
  String open(String user) {
    bound(user);
    byte[] bytes = new byte[24];
    RANDOM.nextBytes(bytes);
    String key = HexFormat.of().formatHex(bytes);
    sessions.put(key, new Session(user, System.nanoTime()));
    return key;
  }

  /** The user of a live session key, its last use now; empty for an unknown or idle one. */
  Optional<String> use(String key) {
    Session session = sessions.get(key);
    if (session == null) {
      return Optional.empty();
    }
    long now = System.nanoTime();
    if (now - session.lastUse() > IDLE.toNanos()) {
      sessions.remove(key);
      return Optional.empty();
    }
    sessions.put(key, new Session(session.user(), now));
    return Optional.of(session.user());
  }

  /**
   * Ends the session {@code key} when {@code mayEnd} accepts its user.
   *
   * @return the user whose session ended, or empty (an unknown key, or one not to end)
   */
  Optional<String> end(String key, Predicate<String> mayEnd) {
    Session session = key == null ? null : sessions.get(key);
    if (session == null || !mayEnd.test(session.user())) {
      return Optional.empty();
    }
    sessions.remove(key);
    return Optional.of(session.user());
  }

  /** Ends every session of {@code user}. */
  void endAll(String user) {
    sessions.values().removeIf(session -> session.user().equals(user));
  }

  /** Live sessions of {@code user} (tests, metrics). */
  int count(String user) {
    return (int) sessions.values().stream().filter(s -> s.user().equals(user)).count();
  }

  /** What the audit trail names a session by: a digest of its key, never the key itself. */
  static String id(String key) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  /**
   * Makes room for a new session of {@code user}: a user keeps at most {@value #MAX_PER_USER}
   * (their least recently used goes), so one account logging in in a loop cannot push everyone
   * else's sessions out; past {@value #MAX} in all, idle ones go, then the least recently used
   * tenth.
   */
  private synchronized void bound(String user) {
    List<Map.Entry<String, Session>> own =
        sessions.entrySet().stream().filter(e -> e.getValue().user().equals(user)).toList();
    if (own.size() >= MAX_PER_USER) {
      own.stream()
          .sorted(Comparator.comparingLong(e -> e.getValue().lastUse()))
          .limit(own.size() - MAX_PER_USER + 1)
          .forEach(e -> sessions.remove(e.getKey()));
    }
    if (sessions.size() >= MAX) {
      long now = System.nanoTime();
      sessions.values().removeIf(session -> now - session.lastUse() > IDLE.toNanos());
    }
    if (sessions.size() >= MAX) {
      sessions.entrySet().stream()
          .sorted(Comparator.comparingLong(e -> e.getValue().lastUse()))
          .limit(MAX / 10)
          .map(Map.Entry::getKey)
          .toList()
          .forEach(sessions::remove);
    }
  }
}
