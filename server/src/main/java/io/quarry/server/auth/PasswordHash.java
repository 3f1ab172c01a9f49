package io.quarry.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Salted password hashes for {@code auth.users[].password}: {@code pbkdf2:sha256:<iterations>:<salt
 * base64>:<hash base64>}, PBKDF2 with HMAC-SHA256 (the JDK's {@code PBKDF2WithHmacSHA256}), at
 * least {@value #MIN_ITERATIONS} iterations as OWASP advises, a 16-byte random salt and a 32-byte
 * hash. {@code quarry passwd-hash} makes one. A configured password without the {@code pbkdf2:}
 * prefix is plain text (still accepted, with a warning at start).
 */
public final class PasswordHash {
  public static final String PREFIX = "pbkdf2:sha256:";

  /** OWASP's figure for PBKDF2-HMAC-SHA256 (Password Storage Cheat Sheet). */
  public static final int MIN_ITERATIONS = 210_000;

  /** What {@link #hash} uses. */
  public static final int ITERATIONS = 210_000;

  private static final int SALT_BYTES = 16;
  private static final int HASH_BYTES = 32;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final int iterations;
  private final byte[] salt;
  private final byte[] hash;

  private PasswordHash(int iterations, byte[] salt, byte[] hash) {
    this.iterations = iterations;
    this.salt = salt;
    this.hash = hash;
  }

  /** Whether a configured password is a hash (else it is plain text). */
  public static boolean isHash(String configured) {
    return configured.startsWith("pbkdf2:");
  }

  /**
   * What is wrong with a configured password that looks like a hash ("is not …"), or null when it
   * is plain text or a well-formed hash.
   */
  public static String problem(String configured) {
    if (!isHash(configured)) {
      return null;
    }
    try {
      parse(configured);
      return null;
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
  }

  /**
   * Reads a hash.
   *
   * @throws IllegalArgumentException saying what is wrong, never quoting the value
   */
  public static PasswordHash parse(String configured) {
    String[] parts = configured.split(":", -1);
    String expected =
        " (expected pbkdf2:sha256:<iterations>:<salt base64>:<hash base64>, as quarry passwd-hash"
            + " prints)";
    if (parts.length != 5 || !parts[0].equals("pbkdf2") || !parts[1].equals("sha256")) {
      throw new IllegalArgumentException("is not a valid PBKDF2 hash" + expected);
    }
    int iterations;
    try {
      iterations = Integer.parseInt(parts[2]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "has a PBKDF2 hash whose iteration count is not a number" + expected);
    }
    if (iterations < MIN_ITERATIONS) {
      throw new IllegalArgumentException(
          "has a PBKDF2 hash of "
              + iterations
              + " iterations; at least "
              + MIN_ITERATIONS
              + " are needed (make a new one with quarry passwd-hash)");
    }
    byte[] salt;
    byte[] hash;
    try {
      salt = Base64.getDecoder().decode(parts[3]);
      hash = Base64.getDecoder().decode(parts[4]);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "has a PBKDF2 hash whose salt or hash is not base64" + expected);
    }
    if (salt.length < 8 || hash.length < 16) {
      throw new IllegalArgumentException(
          "has a PBKDF2 hash with a salt under 8 bytes or a hash under 16 bytes" + expected);
    }
    return new PasswordHash(iterations, salt, hash);
  }

  /** A new hash of {@code password} with a random salt, in the configuration's text form. */
  public static String hash(String password) {
    byte[] salt = new byte[SALT_BYTES];
    RANDOM.nextBytes(salt);
    byte[] hash = derive(password, salt, ITERATIONS, HASH_BYTES);
    Base64.Encoder base64 = Base64.getEncoder();
    return PREFIX
        + ITERATIONS
        + ":"
        + base64.encodeToString(salt)
        + ":"
        + base64.encodeToString(hash);
  }

  /** Whether {@code password} has this hash; the comparison is constant-time. */
  public boolean matches(String password) {
    return MessageDigest.isEqual(derive(password, salt, iterations, hash.length), hash);
  }

  private static byte[] derive(String password, byte[] salt, int iterations, int bytes) {
    PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, iterations, bytes * 8);
    try {
      return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("PBKDF2WithHmacSHA256 is not available", e);
    } finally {
      spec.clearPassword();
    }
  }

  /** Plain text compared in constant time, for passwords configured without a hash. */
  static boolean plainMatches(String password, String expected) {
    return MessageDigest.isEqual(
        password.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8));
  }
}
