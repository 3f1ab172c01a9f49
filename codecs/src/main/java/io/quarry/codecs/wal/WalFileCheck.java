package io.quarry.codecs.wal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The verdict on one WAL file, read without changing it: what {@code quarry fsck} reports ({@link
 * #checkAll}).
 *
 * @param problem null when every record reads and passes its checksum
 * @param offset where reading stopped (the file's size when it is clean)
 * @param tornTail whether the problem is a write torn by a crash at the end of the newest file,
 *     which opening the log cuts off (it was never acknowledged); any other problem is damage
 * @param unsupported whether the file is not a Quarry WAL file or of a version this build does not
 *     read (the problem names the versions it reads): opening the log throws, so the server does
 *     not start while it is there (a file it cannot read is never deleted or replayed)
 */
public record WalFileCheck(
    Path file, String problem, long offset, boolean tornTail, boolean unsupported) {
  public boolean clean() {
    return problem == null;
  }

  /**
   * Reads every record of every WAL file in {@code directory} and checks it, changing nothing. The
   * server must not be running.
   */
  public static List<WalFileCheck> checkAll(Path directory) throws IOException {
    List<WalFileCheck> checks = new ArrayList<>();
    if (!Files.isDirectory(directory)) {
      return checks;
    }
    TreeMap<Long, Path> files = WalFile.files(directory);
    for (Path file : files.values()) {
      WalFile.Unread unread;
      try {
        unread = WalFile.read(file, (firstSeq, events) -> {});
      } catch (WalFile.Unsupported e) {
        checks.add(new WalFileCheck(file, e.getMessage(), 0, false, true));
        continue;
      }
      boolean newest = file.equals(files.lastEntry().getValue());
      checks.add(
          unread == null
              ? new WalFileCheck(file, null, Files.size(file), false, false)
              : new WalFileCheck(
                  file, unread.problem(), unread.offset(), newest && unread.tornTail(), false));
    }
    return checks;
  }
}
