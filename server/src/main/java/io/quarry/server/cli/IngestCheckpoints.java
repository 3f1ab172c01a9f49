package io.quarry.server.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code quarry ingest} has loaded, so a re-run after an interruption sends only the rest.
 *
 * <p>Each file is known by its fingerprint (SHA-256 of its first {@link #FINGERPRINT_BYTES} bytes,
 * so a renamed or rotated file is recognised and a replaced one is not) together with the server
 * and index it went to. For each, the store keeps the byte ranges the server acknowledged (chunks
 * that touch merge into one range); chunks are cut the same way on every run, so a resumed run
 * skips exactly the acknowledged ones, even when requests in flight finished out of order. The file
 * is JSON, rewritten atomically after every acknowledged chunk.
 */
final class IngestCheckpoints {
  static final int FINGERPRINT_BYTES = 4096;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private final Map<String, TreeMap<Long, Long>> done; // key -> start -> end, guarded by this

  private IngestCheckpoints(Path file, Map<String, TreeMap<Long, Long>> done) {
    this.file = file;
    this.done = done;
  }

  /** Opens the store at {@code file}, empty when it does not exist yet. */
  static IngestCheckpoints open(Path file) throws IOException {
    Map<String, TreeMap<Long, Long>> done = new LinkedHashMap<>();
    if (Files.exists(file)) {
      Map<String, List<long[]>> saved =
          JSON.readValue(file.toFile(), new TypeReference<Map<String, List<long[]>>>() {});
      saved.forEach(
          (key, ranges) -> {
            TreeMap<Long, Long> map = new TreeMap<>();
            for (long[] range : ranges) {
              map.put(range[0], range[1]);
            }
            done.put(key, map);
          });
    }
    return new IngestCheckpoints(file, done);
  }

  /** The key of a file sent to one index of one server. */
  static String key(String server, String index, Path path) throws IOException {
    byte[] head;
    try (InputStream in = Files.newInputStream(path)) {
      head = in.readNBytes(FINGERPRINT_BYTES);
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(head);
      return server + " " + index + " " + HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /**
   * The parts of {@code [start, end)} not acknowledged before, in order. Recorded ranges start and
   * end at line ends (they were chunks), so each part is whole lines too.
   */
  synchronized List<long[]> missing(String key, long start, long end) {
    List<long[]> parts = new ArrayList<>();
    TreeMap<Long, Long> ranges = done.getOrDefault(key, new TreeMap<>());
    long at = start;
    Map.Entry<Long, Long> covering = ranges.floorEntry(at);
    if (covering != null && covering.getValue() > at) {
      at = covering.getValue();
    }
    for (Map.Entry<Long, Long> next : ranges.subMap(at, true, end, false).entrySet()) {
      if (next.getKey() > at) {
        parts.add(new long[] {at, next.getKey()});
      }
      at = Math.max(at, next.getValue());
    }
    if (at < end) {
      parts.add(new long[] {at, end});
    }
    return parts;
  }

  /** Where the acknowledged prefix of the file ends: a resumed run starts reading there. */
  synchronized long prefixEnd(String key) {
    TreeMap<Long, Long> ranges = done.get(key);
    Long end = ranges == null ? null : ranges.get(0L);
    return end == null ? 0 : end;
  }

  /** Bytes of the file acknowledged so far. */
  synchronized long doneBytes(String key) {
    TreeMap<Long, Long> ranges = done.get(key);
    if (ranges == null) {
      return 0;
    }
    long bytes = 0;
    for (Map.Entry<Long, Long> range : ranges.entrySet()) {
      bytes += range.getValue() - range.getKey();
    }
    return bytes;
  }

  /** Forgets every range recorded for {@code key} (a followed file truncated: new content). */
  synchronized void forget(String key) throws IOException {
    if (done.remove(key) != null) {
      save();
    }
  }

  /** Records an acknowledged chunk and saves the store. */
  synchronized void markDone(String key, long start, long end) throws IOException {
    TreeMap<Long, Long> ranges = done.computeIfAbsent(key, k -> new TreeMap<>());
    long from = start;
    long to = end;
    Map.Entry<Long, Long> before = ranges.floorEntry(start);
    if (before != null && before.getValue() >= start) {
      from = before.getKey();
      to = Math.max(to, before.getValue());
    }
    for (Map.Entry<Long, Long> after = ranges.ceilingEntry(from);
        after != null && after.getKey() <= to;
        after = ranges.ceilingEntry(from)) {
      to = Math.max(to, after.getValue());
      ranges.remove(after.getKey());
    }
    ranges.put(from, to); // adjacent ranges merge, so a finished file is one range
    save();
  }

  private void save() throws IOException {
    Map<String, List<long[]>> saved = new LinkedHashMap<>();
    done.forEach(
        (key, ranges) -> {
          List<long[]> list = new ArrayList<>();
          ranges.forEach((start, end) -> list.add(new long[] {start, end}));
          saved.put(key, list);
        });
    Files.createDirectories(file.toAbsolutePath().getParent());
    Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
    JSON.writeValue(temporary.toFile(), saved);
    try {
      Files.move(
          temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
