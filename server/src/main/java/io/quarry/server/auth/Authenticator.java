package io.quarry.server.auth;

import static java.util.Objects.requireNonNull;

import io.quarry.server.audit.AuditEvent;
import io.quarry.server.audit.AuditTrail;
import io.quarry.server.config.Auth;
import io.quarry.server.config.HecToken;
import io.quarry.server.config.Role;
import io.quarry.server.config.User;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.RequestOrigin;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks credentials. Search endpoints take HTTP Basic as {@code admin} or a configured user, or a
 * session key from {@link #login} as {@code Authorization: Splunk <key>} or {@code Bearer <key>}
 * (Splunk's way); HEC endpoints take {@code Authorization: Splunk <token>} or Basic with the token
 * as the password. Comparisons are constant-time.
 *
 * <p>It records into the audit trail every failed password check (HTTP Basic or a login), every
 * attempt refused by the login throttle, every session key issued by a login and every logout;
 * requests that authenticate with Basic or a session key are not audited one by one (the searches
 * they run are). It also holds the roles' per-user search quotas ({@link #quotas}).
 */
public final class Authenticator {
  public static final String ADMIN_USER = "admin";

  /** How long a session key stays valid after its last use. */
  public static final Duration SESSION_IDLE = SessionKeys.IDLE;

  static final int MAX_SESSIONS_PER_USER = SessionKeys.MAX_PER_USER;

  private final Passwords passwords;
  private final Map<String, Access> access;
  private final List<HecToken> hecTokens;
  private final SessionKeys sessions = new SessionKeys();
  private final LoginThrottle throttle = new LoginThrottle(System::nanoTime);
  private final SearchQuotas quotas = new SearchQuotas();
  private final AuditTrail audit;

  public Authenticator(String adminPassword, List<HecToken> hecTokens) {
    this(adminPassword, List.of(), hecTokens);
  }

  /** Users with the built-in roles only (no auth.roles). */
  public Authenticator(String adminPassword, List<User> users, List<HecToken> hecTokens) {
    this(adminPassword, new Auth(adminPassword, users, null), hecTokens);
  }

  /** {@code admin} with {@code adminPassword}, and the users and roles of {@code auth}. */
  public Authenticator(String adminPassword, Auth auth, List<HecToken> hecTokens) {
    this(adminPassword, auth, hecTokens, AuditTrail.NONE);
  }

  /** As above, recording logins, failed logins and logouts into {@code audit}. */
  public Authenticator(
      String adminPassword, Auth auth, List<HecToken> hecTokens, AuditTrail audit) {
    this.audit = requireNonNull(audit, "audit is null");
    Map<String, String> all = new HashMap<>();
    Map<String, Access> accesses = new HashMap<>();
    all.put(ADMIN_USER, requireNonNull(adminPassword, "adminPassword is null"));
    accesses.put(ADMIN_USER, Access.admin());
    for (User user : auth.users()) {
      all.put(user.name(), user.password());
      accesses.put(
          user.name(),
          Access.of(user.name(), user.roles().stream().map(auth.roles()::get).toList()));
    }
    this.passwords = new Passwords(all);
    this.access = new ConcurrentHashMap<>(accesses);
    this.hecTokens = List.copyOf(hecTokens);
  }

  /**
   * Adds or replaces a user defined at run time ({@link UserDirectory}): {@code hash} is a {@link
   * PasswordHash}. A replaced user's sessions end and its remembered password is forgotten.
   */
  void define(String user, String hash, Access userAccess) {
    forget(user);
    passwords.define(user, hash);
    access.put(user, userAccess);
  }

  /**
   * Gives a user defined at run time the access their roles give now (a role of theirs changed);
   * their sessions and password stay.
   */
  void reaccess(String user, Access userAccess) {
    access.computeIfPresent(user, (name, old) -> userAccess);
  }

  /** Removes a user defined at run time: it can no longer log in, and its sessions end. */
  void forget(String user) {
    access.remove(user);
    passwords.forget(user);
    sessions.endAll(user);
  }

  /** Where logins, searches and configuration changes are recorded (the {@code _audit} index). */
  public AuditTrail audit() {
    return audit;
  }

  /** The roles' per-user search quotas and who runs how many searches now. */
  public SearchQuotas quotas() {
    return quotas;
  }

  /** An audit event about {@code user} now, with the client's address when a request is served. */
  public static AuditEvent auditEvent(String user, String action, String info) {
    AuditEvent event = AuditEvent.of(java.time.Instant.now(), user, action, info);
    return RequestOrigin.clientAddress().map(ip -> event.with("clientip", ip)).orElse(event);
  }

  /** The users whose password is configured as plain text (admin's generated one excluded). */
  public static List<String> plainTextPasswords(Auth auth) {
    return auth.users().stream()
        .filter(user -> !PasswordHash.isHash(user.password()))
        .map(User::name)
        .toList();
  }

  /**
   * What an authenticated user may do.
   *
   * @throws IllegalArgumentException for a name that is not a user
   */
  public Access access(String user) {
    Access found = access.get(user);
    if (found == null) {
      throw new IllegalArgumentException("no such user: " + user);
    }
    return found;
  }

  /** Requires a known user's credentials (see {@link #requireUser}) and answers their access. */
  public Access requireAccess(String authorization, String action) {
    return access(requireUser(authorization, action));
  }

  /**
   * The user an Authorization header authenticates: Basic credentials of a known user, or a live
   * session key; without the header, the known user the request's verified client certificate
   * stands for ({@code server.tls.certificateUsers}), if any.
   */
  public Optional<String> user(String authorization) {
    if (authorization == null || authorization.isBlank()) {
      return RequestOrigin.certificateUser().filter(access::containsKey);
    }
    Optional<String[]> basic = basicCredentials(authorization);
    if (basic.isPresent()) {
      String[] credentials = basic.get();
      if (passwordMatches(credentials[0], credentials[1], "basic")) {
        return Optional.of(credentials[0]);
      }
    }
    return presentedHecToken(authorization).flatMap(sessions::use);
  }

  /** Whether an Authorization header authenticates {@code admin}. */
  public boolean isAdmin(String authorization) {
    return user(authorization).filter(ADMIN_USER::equals).isPresent();
  }

  /**
   * Splunk's {@code /services/auth/login}: a new session key for a user's credentials, or empty
   * when they are wrong.
   */
  public Optional<String> login(String user, String password) {
    if (user == null || password == null) {
      audit.recordFailedLogin(
          auditEvent(user, "login attempt", "failed").with("reason", "no credentials"),
          RequestOrigin.clientAddress().orElse(null));
      return Optional.empty();
    }
    if (!passwordMatches(user, password, "login")) {
      return Optional.empty();
    }
    String key = sessions.open(user);
    audit.record(
        auditEvent(user, "login attempt", "succeeded")
            .with("method", "login")
            .with("session", SessionKeys.id(key)));
    return Optional.of(key);
  }

  /**
   * Ends a session: Splunk's {@code DELETE /services/authentication/httpauth-tokens/{key}}. A user
   * ends their own sessions; one with {@code admin_all_objects} ends anyone's.
   *
   * @param requester who asks
   * @return whether a session the requester may end was ended (false for an unknown key, or another
   *     user's: the same answer, so keys cannot be probed)
   */
  public boolean logout(Access requester, String key) {
    Optional<String> ended =
        sessions.end(
            key, user -> user.equals(requester.user()) || requester.has(Role.ADMIN_ALL_OBJECTS));
    ended.ifPresent(
        user ->
            audit.record(
                auditEvent(user, "logout", "succeeded")
                    .with("session", SessionKeys.id(key))
                    .with("by", requester.user())));
    return ended.isPresent();
  }

  /**
   * Checks a password, throttled: a user name with too many recent failures is answered 429 without
   * a check ({@link LoginThrottle}).
   */
  private boolean passwordMatches(String user, String password, String method) {
    try {
      throttle.check(user);
    } catch (ApiException locked) {
      audit.recordFailedLogin(
          auditEvent(user, "login attempt", "locked")
              .with("method", method)
              .with("reason", "too many failed logins"),
          RequestOrigin.clientAddress().orElse(null));
      throw locked;
    }
    boolean matches = passwords.matches(user, password);
    if (matches) {
      throttle.succeeded(user);
    } else {
      throttle.failed(user);
      audit.recordFailedLogin(
          auditEvent(user, "login attempt", "failed")
              .with("method", method)
              .with("reason", passwords.has(user) ? "wrong password" : "no such user"),
          RequestOrigin.clientAddress().orElse(null));
    }
    return matches;
  }

  /** Live sessions of {@code user} (tests, metrics). */
  int sessionCount(String user) {
    return sessions.count(user);
  }

  /**
   * Requires a known user's credentials.
   *
   * @param action what the caller is doing, for the message ("Search", "Index statistics")
   * @return the user's name
   * @throws ApiException 401 asking for HTTP Basic when they are missing or wrong
   */
  public String requireUser(String authorization, String action) {
    return user(authorization)
        .orElseThrow(
            () ->
                ApiException.unauthorized(
                    action
                        + " needs HTTP Basic authentication as a Quarry user (admin or one of"
                        + " auth.users) or a session key from /services/auth/login"));
  }

  /**
   * Requires the admin's credentials.
   *
   * @param action what the caller is doing, for the message ("Uploading a lookup")
   * @throws ApiException 401 when they are missing or wrong, 403 for another user
   */
  public void requireAdmin(String authorization, String action) {
    requireAdmin(authorization, action, "admin action");
  }

  /**
   * As {@link #requireAdmin(String, String)}, a refusal of another user recorded in the audit trail
   * as {@code auditAction} ({@code edit_macros}, …) with {@code info=denied}.
   */
  public void requireAdmin(String authorization, String action, String auditAction) {
    String user = requireUser(authorization, action);
    if (!user.equals(ADMIN_USER)) {
      audit.record(
          auditEvent(user, auditAction, "denied")
              .with("operation", action)
              .with("reason", "admin only"));
      throw ApiException.forbidden(action + " is for 'admin' only, not for user '" + user + "'");
    }
  }

  /** The token an Authorization header names, when it is a known HEC token. */
  public Optional<HecToken> hecToken(String presented) {
    for (HecToken token : hecTokens) {
      if (Passwords.constantTimeEquals(presented, token.token())) {
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
}
