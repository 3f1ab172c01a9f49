package io.quarry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FileRegions} cuts an uncompressed file where {@link FileChunks} cuts it after reading it
 * all, though it reads only a window at each chunk's end: lines and multi-line events longer than
 * the window, line ends exactly at a chunk's edge, CRLF, no line end at the end of the file, and a
 * start in the middle of the file (a resumed run).
 */
class FileRegionsTest {
  @TempDir Path directory;

  @Test
  void cutsWhereReadingTheWholeChunkCuts() throws Exception {
    Random random = new Random(23);
    for (int round = 0; round < 60; round++) {
      byte[] text = text(random, 400 + random.nextInt(400), round % 3 == 0, round % 4 == 0);
      Path file = directory.resolve("f" + round + ".log");
      Files.write(file, text);
      int chunk = 256 + random.nextInt(1024);
      int window = 16 + random.nextInt(chunk);
      long from = round % 5 == 0 ? lineStartNear(text, random.nextInt(text.length)) : 0;
      for (boolean wholeLinesOnly : new boolean[] {false, true}) {
        List<long[]> expected = chunksOf(file, from, wholeLinesOnly, chunk);
        List<long[]> cut = new ArrayList<>();
        long end;
        try (FileChannel channel = FileChannel.open(file)) {
          end =
              new FileRegions(chunk, window)
                  .forEach(channel, from, wholeLinesOnly, (s, e) -> cut.add(new long[] {s, e}));
        }
        String what =
            "round %d, chunk %d, window %d, from %d, whole lines %s"
                .formatted(round, chunk, window, from, wholeLinesOnly);
        assertThat(cut).as(what).hasSameSizeAs(expected);
        for (int i = 0; i < cut.size(); i++) {
          assertThat(cut.get(i)).as(what + ", chunk " + i).containsExactly(expected.get(i));
        }
        assertThat(end).as(what).isEqualTo(expected.isEmpty() ? from : expected.getLast()[1]);
        if (!wholeLinesOnly) {
          assertThat(end).as(what + ": everything sent").isEqualTo(text.length);
        }
      }
    }
  }

  @Test
  void aLineEndingExactlyAtTheChunkEdgeIsCutThere() throws Exception {
    // 100-byte lines, a 500-byte chunk: the fifth line's end is the chunk's last byte
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 12; i++) {
      text.append(("line " + i + " ").repeat(20), 0, 99).append('\n');
    }
    Path file = directory.resolve("edge.log");
    Files.writeString(file, text);
    List<long[]> cut = new ArrayList<>();
    try (FileChannel channel = FileChannel.open(file)) {
      new FileRegions(500, 64).forEach(channel, 0, false, (s, e) -> cut.add(new long[] {s, e}));
    }
    // the last byte of a full chunk is never a cut (the next line's first byte is unseen), so
    // the chunk ends before its last line, as FileChunks's does
    assertThat(cut)
        .extracting(r -> r[0] + "-" + r[1])
        .containsExactly("0-400", "400-800", "800-1200");
    assertThat(cut)
        .extracting(r -> r[0] + "-" + r[1])
        .isEqualTo(chunksOf(file, 0, false, 500).stream().map(r -> r[0] + "-" + r[1]).toList());
  }

  /** How {@link FileChunks} cuts the file (it reads every byte). */
  private static List<long[]> chunksOf(Path file, long from, boolean wholeLinesOnly, int chunk)
      throws Exception {
    List<long[]> chunks = new ArrayList<>();
    FileChunks reader = new FileChunks(1, chunk);
    reader.forEach(
        file,
        from,
        wholeLinesOnly,
        (buffer, length, start, end, consumed) -> {
          chunks.add(new long[] {start, end});
          reader.release(buffer);
        });
    return chunks;
  }

  private static long lineStartNear(byte[] text, int at) {
    for (int i = at; i > 0; i--) {
      if (text[i - 1] == '\n') {
        return i;
      }
    }
    return 0;
  }

  /**
   * Lines of random lengths, some longer than any window, some continued by indented lines (a
   * multi-line event), with CRLF or LF, and maybe no line end at the end.
   */
  private static byte[] text(Random random, int lines, boolean crlf, boolean unterminated) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < lines; i++) {
      text.append(i % 5 == 2 ? "\tat frame " : i % 9 == 4 ? "  caused by " : "event ").append(i);
      text.append(' ').append("x".repeat(random.nextInt(i % 50 == 0 ? 2_000 : 80)));
      text.append(crlf ? "\r\n" : "\n");
    }
    byte[] bytes = text.toString().getBytes(StandardCharsets.US_ASCII);
    return unterminated ? Arrays.copyOf(bytes, bytes.length - (crlf ? 2 : 1)) : bytes;
  }
}
