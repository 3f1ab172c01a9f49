package io.quarry.server.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.UUID;

/**
 * A secret kept in a file of the data directory, generated on first use when the configuration does
 * not provide one. The file is readable by its owner only.
 */
public final class Secrets {
  private static final SecureRandom RANDOM = new SecureRandom();

  private Secrets() {}

  /** A value read from, or generated into, {@code file}. */
  public record Secret(String value, boolean generated) {
    /**
     * Never the value: a secret that reaches a log line or an exception message says only what it
     * is.
     */
    @Override
    public String toString() {
      return generated ? "Secret[generated]" : "Secret[configured]";
    }
  }

  public static Secret adminPassword(Path file) throws IOException {
    return readOrCreate(file, () -> randomPassword());
  }

  public static Secret hecToken(Path file) throws IOException {
    return readOrCreate(file, () -> randomToken());
  }

  /** A Splunk-style HEC token: a random UUID. */
  public static String randomToken() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return UUID.nameUUIDFromBytes(bytes).toString();
  }

  private static String randomPassword() {
    byte[] bytes = new byte[12];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /**
   * Creates the data directory readable by its owner only (0700), as it holds the generated secrets
   * and every event; an existing one that other users can enter is kept as it is, with a warning
   * naming it (changing an operator's permissions is the operator's call).
   */
  public static void privateDirectory(Path directory) throws IOException {
    boolean posix = directory.getFileSystem().supportedFileAttributeViews().contains("posix");
    if (Files.notExists(directory)) {
      if (directory.getParent() != null) {
        Files.createDirectories(directory.getParent());
      }
      try {
        if (posix) {
          Files.createDirectory(
              directory,
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } else {
          Files.createDirectory(directory);
        }
      } catch (FileAlreadyExistsException raced) {
        // another process made it first: fall through to the check
      }
      return;
    }
    if (posix) {
      String permissions = PosixFilePermissions.toString(Files.getPosixFilePermissions(directory));
      if (!permissions.endsWith("------")) {
        java.util.logging.Logger.getLogger(Secrets.class.getName())
            .warning(
                "data directory "
                    + directory
                    + " can be entered by other users ("
                    + permissions
                    + "); it holds the generated secrets and every event: chmod 700 it");
      }
    }
  }

  private static Secret readOrCreate(Path file, java.util.function.Supplier<String> generator)
      throws IOException {
    if (Files.exists(file)) {
      String kept = Files.readString(file, StandardCharsets.UTF_8).strip();
      if (!kept.isEmpty()) {
        return new Secret(kept, false);
      }
      // left empty by a crash between creating and writing it: an empty secret would let anyone
      // in, so a new one is made
      Files.delete(file);
    }
    Files.createDirectories(file.getParent());
    String value = generator.get();
    // created owner-only in the same call, so no other user can open it between creation and chmod
    java.util.Set<java.nio.file.attribute.FileAttribute<?>> ownerOnly =
        file.getFileSystem().supportedFileAttributeViews().contains("posix")
            ? java.util.Set.of(
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
            : java.util.Set.of();
    try (java.nio.channels.SeekableByteChannel channel =
        Files.newByteChannel(
            file,
            java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
            ownerOnly.toArray(java.nio.file.attribute.FileAttribute<?>[]::new))) {
      java.nio.ByteBuffer bytes =
          java.nio.ByteBuffer.wrap((value + "\n").getBytes(StandardCharsets.UTF_8));
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
      if (channel instanceof java.nio.channels.FileChannel fileChannel) {
        fileChannel.force(true);
      }
    } catch (FileAlreadyExistsException raced) {
      return new Secret(Files.readString(file, StandardCharsets.UTF_8).strip(), false);
    }
    return new Secret(value, true);
  }
}
