package io.quarry.server.auth;

import static java.util.Objects.requireNonNull;

import io.quarry.server.config.QuarryConfig.HecToken;
import io.quarry.server.http.ApiException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks credentials. Search endpoints take HTTP Basic as {@code admin}, or a session key from
 * {@link #login} as {@code Authorization: Splunk <key>} or {@code Bearer <key>} (Splunk's way); HEC
 * endpoints take {@code Authorization: Splunk <token>} or Basic with the token as the password.
 * Comparisons are constant-time.
 */
public final class Authenticator {
  public static final String ADMIN_USER = "admin";

  /** How long a session key stays valid after its last use. */
  public static final Duration SESSION_IDLE = Duration.ofHours(1);

  private static final int MAX_SESSIONS = 10_000;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String adminPassword;
  private final List<HecToken> hecTokens;
  private final Map<String, Long> sessions = new ConcurrentHashMap<>(); // key -> last use, nanos

  public Authenticator(String adminPassword, List<HecToken> hecTokens) {
    this.adminPassword = requireNonNull(adminPassword, "adminPassword is null");
    this.hecTokens = List.copyOf(hecTokens);
  }

  /** Whether an Authorization header carries the admin's Basic credentials or a live session. */
  public boolean isAdmin(String authorization) {
    if (basicCredentials(authorization)
        .filter(c -> c[0].equals(ADMIN_USER) && constantTimeEquals(c[1], adminPassword))
        .isPresent()) {
      return true;
    }
    return presentedHecToken(authorization).filter(this::liveSession).isPresent();
  }

  /**
   * Splunk's {@code /services/auth/login}: a new session key for the admin's credentials, or empty
   * when they are wrong.
   */
  public Optional<String> login(String user, String password) {
    if (user == null
        || password == null
        || !user.equals(ADMIN_USER)
        || !constantTimeEquals(password, adminPassword)) {
      return Optional.empty();
    }
    if (sessions.size() >= MAX_SESSIONS) {
      long now = System.nanoTime();
      sessions.values().removeIf(lastUse -> now - lastUse > SESSION_IDLE.toNanos());
      if (sessions.size() >= MAX_SESSIONS) {
        sessions.clear(); // everyone logs in again rather than memory growing without bound
      }
    }
    byte[] bytes = new byte[24];
    RANDOM.nextBytes(bytes);
    String key = HexFormat.of().formatHex(bytes);
    sessions.put(key, System.nanoTime());
    return Optional.of(key);
  }

  private boolean liveSession(String key) {
    Long lastUse = sessions.get(key);
    if (lastUse == null) {
      return false;
    }
    long now = System.nanoTime();
    if (now - lastUse > SESSION_IDLE.toNanos()) {
      sessions.remove(key);
      return false;
    }
    sessions.put(key, now);
    return true;
  }

  /**
   * Requires the admin's credentials.
   *
   * @param action what the caller is doing, for the message ("Search", "Index statistics")
   * @throws ApiException 401 asking for HTTP Basic when they are missing or wrong
   */
  public void requireAdmin(String authorization, String action) {
    if (!isAdmin(authorization)) {
      throw ApiException.unauthorized(
          action
              + " needs HTTP Basic authentication as 'admin' or a session key from"
              + " /services/auth/login");
    }
  }

  /** The token an Authorization header names, when it is a known HEC token. */
  public Optional<HecToken> hecToken(String presented) {
    for (HecToken token : hecTokens) {
      if (constantTimeEquals(presented, token.token())) {
        return Optional.of(token);
      }
    }
    return Optional.empty();
  }

  /**
   * The HEC token text of an Authorization header ({@code Splunk <token>}, or Basic with the token
   * as password), or empty when the header carries none.
   */
  public static Optional<String> presentedHecToken(String authorization) {
    if (authorization == null || authorization.isBlank()) {
      return Optional.empty();
    }
    String trimmed = authorization.strip();
    int space = trimmed.indexOf(' ');
    if (space < 0) {
      return Optional.empty();
    }
    String scheme = trimmed.substring(0, space);
    String value = trimmed.substring(space + 1).strip();
    if (scheme.equalsIgnoreCase("Splunk") || scheme.equalsIgnoreCase("Bearer")) {
      return Optional.of(value);
    }
    return basicCredentials(authorization).map(c -> c[1]);
  }

  private static Optional<String[]> basicCredentials(String authorization) {
    if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
      return Optional.empty();
    }
    try {
      String decoded =
          new String(
              Base64.getDecoder().decode(authorization.substring(6).strip()),
              StandardCharsets.UTF_8);
      int colon = decoded.indexOf(':');
      if (colon < 0) {
        return Optional.empty();
      }
      return Optional.of(new String[] {decoded.substring(0, colon), decoded.substring(colon + 1)});
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static boolean constantTimeEquals(String a, String b) {
    return MessageDigest.isEqual(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }
}
