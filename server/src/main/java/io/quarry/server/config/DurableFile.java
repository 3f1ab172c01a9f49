package io.quarry.server.config;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Replaces a small file the server keeps its own state in (macros, saved searches) so that after a
 * crash it holds either the old bytes or the new ones, never a mix or nothing: the new bytes go to
 * a hidden sibling, are forced to disk, and the sibling is renamed over the file. The file is
 * readable by its owner only (it may hold password hashes), set when the sibling is created.
 */
public final class DurableFile {
  private DurableFile() {}

  /** Writes {@code bytes} as the new content of {@code file}, creating its directory. */
  public static void replace(Path file, byte[] bytes) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Path temporary = file.resolveSibling("." + file.getFileName() + ".tmp");
    Files.deleteIfExists(temporary);
    java.util.Set<StandardOpenOption> options =
        java.util.EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    boolean posix = temporary.getFileSystem().supportedFileAttributeViews().contains("posix");
    try (FileChannel channel =
        posix
            ? FileChannel.open(
                temporary,
                options,
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")))
            : FileChannel.open(temporary, options)) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      channel.force(true); // the rename below must not publish an empty file after a crash
    }
    try {
      Files.move(
          temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
