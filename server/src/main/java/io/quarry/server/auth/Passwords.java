package io.quarry.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The users' passwords, as configured (plain text or a {@link PasswordHash}) or defined at run
 * time, and the check of a presented one: constant-time, an unknown name costing what a known one's
 * wrong password costs (so timing does not tell which users exist), a hash's last match remembered
 * so that HTTP Basic on every request costs one PBKDF2 derivation per user.
 */
final class Passwords {
  /**
   * Checked against for unknown names when some users have hashed passwords: made on first need,
   * since making it is a PBKDF2 derivation (about 0.2 s of CPU at start, session 32's profile) that
   * a server whose passwords are all plain text never needs.
   */
  private static final class UnknownUser {
    static final PasswordHash HASH = PasswordHash.parse(PasswordHash.hash("\0no such user"));
  }

  private final Map<String, String> passwords; // user -> configured password, admin included
  private final Map<String, PasswordHash> hashes; // user -> parsed hash, for hashed passwords

  /**
   * user -> HMAC (under a key of this process) of the last password that matched their hash, so
   * that HTTP Basic on every request costs one PBKDF2 derivation per user, not one per request.
   */
  private final Map<String, byte[]> verified = new ConcurrentHashMap<>();

  private final byte[] verifiedKey = new byte[32];

  /** {@code passwords}: user -> configured password, plain text or a {@link PasswordHash}. */
  Passwords(Map<String, String> passwords) {
    this.passwords = new ConcurrentHashMap<>(passwords);
    this.hashes = new ConcurrentHashMap<>();
    passwords.forEach(
        (user, password) -> {
          if (PasswordHash.isHash(password)) { // as quarry passwd-hash prints it
            hashes.put(user, PasswordHash.parse(password));
          }
        });
    new SecureRandom().nextBytes(verifiedKey);
  }

  /** Sets {@code user}'s password to {@code hash} (a {@link PasswordHash}), forgetting the old. */
  void define(String user, String hash) {
    forget(user);
    hashes.put(user, PasswordHash.parse(hash));
    passwords.put(user, hash);
  }

  /** Forgets {@code user}'s password: it matches nothing any more. */
  void forget(String user) {
    hashes.remove(user);
    passwords.remove(user);
    verified.remove(user);
  }

  /** Whether {@code user} has a password. */
  boolean has(String user) {
    return passwords.containsKey(user);
  }

  /** Whether {@code password} is {@code user}'s. */
  boolean matches(String user, String password) {
    PasswordHash hash = hashes.get(user);
    if (hash != null) {
      byte[] presented = verifiedDigest(user, password);
      byte[] known = verified.get(user);
      if (known != null && MessageDigest.isEqual(presented, known)) {
        return true;
      }
      if (hash.matches(password)) {
        verified.put(user, presented);
        return true;
      }
      return false;
    }
    String expected = passwords.get(user);
    if (expected == null && !hashes.isEmpty()) {
      // an unknown name costs what a hashed user's wrong password costs, so timing does not tell
      // which users exist
      UnknownUser.HASH.matches(password);
      return false;
    }
    // an unknown user still costs a comparison, so timing does not tell which users exist
    return constantTimeEquals(password, expected != null ? expected : "\0unknown user")
        && expected != null;
  }

  /** Whether two texts are equal, in a time that does not depend on where they differ. */
  static boolean constantTimeEquals(String a, String b) {
    return MessageDigest.isEqual(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }

  private byte[] verifiedDigest(String user, String password) {
    try {
      javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
      mac.init(new javax.crypto.spec.SecretKeySpec(verifiedKey, "HmacSHA256"));
      mac.update(user.getBytes(StandardCharsets.UTF_8));
      mac.update((byte) 0);
      return mac.doFinal(password.getBytes(StandardCharsets.UTF_8));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }
}
