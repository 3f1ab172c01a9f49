package io.quarry.server.auth;

import static java.util.Objects.requireNonNull;

import io.quarry.server.config.QuarryConfig.HecToken;
import io.quarry.server.http.ApiException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Checks credentials. Search endpoints take HTTP Basic as {@code admin}; HEC endpoints take {@code
 * Authorization: Splunk <token>} or Basic with the token as the password. Comparisons are
 * constant-time.
 */
public final class Authenticator {
  public static final String ADMIN_USER = "admin";

  private final String adminPassword;
  private final List<HecToken> hecTokens;

  public Authenticator(String adminPassword, List<HecToken> hecTokens) {
    this.adminPassword = requireNonNull(adminPassword, "adminPassword is null");
    this.hecTokens = List.copyOf(hecTokens);
  }

  /** Whether an Authorization header carries the admin's Basic credentials. */
  public boolean isAdmin(String authorization) {
    return basicCredentials(authorization)
        .filter(c -> c[0].equals(ADMIN_USER) && constantTimeEquals(c[1], adminPassword))
        .isPresent();
  }

  /**
   * Requires the admin's credentials.
   *
   * @param action what the caller is doing, for the message ("Search", "Index statistics")
   * @throws ApiException 401 asking for HTTP Basic when they are missing or wrong
   */
  public void requireAdmin(String authorization, String action) {
    if (!isAdmin(authorization)) {
      throw ApiException.unauthorized(action + " needs HTTP Basic authentication as 'admin'");
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
