package io.quarry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FileChunks}: chunks handed over in reused buffers, sent on other threads that give them
 * back later, still add up to the file, line by line; and the eight-bytes-at-a-time line count.
 */
class FileChunksTest {
  @TempDir Path directory;

  @Test
  void linesCountsEveryLineEndAmongBytesOfEveryValue() {
    Random random = new Random(7);
    for (int round = 0; round < 2_000; round++) {
      byte[] bytes = new byte[random.nextInt(80)];
      for (int i = 0; i < bytes.length; i++) {
        // line ends, their neighbours and bytes with the high bit (0x8A is '\n' | 0x80)
        bytes[i] =
            switch (random.nextInt(6)) {
              case 0, 1 -> '\n';
              case 2 -> (byte) 0x8A;
              case 3 -> (byte) (random.nextBoolean() ? 0x0B : 0x09);
              case 4 -> 0;
              default -> (byte) random.nextInt(256);
            };
      }
      int length = bytes.length == 0 ? 0 : random.nextInt(bytes.length + 1);
      int offset = length == 0 ? 0 : random.nextInt(length + 1);
      int expected = 0;
      for (int i = offset; i < length; i++) {
        expected += bytes[i] == '\n' ? 1 : 0;
      }
      assertThat(FileChunks.lines(bytes, offset, length - offset))
          .as("round %d", round)
          .isEqualTo(expected);
    }
  }

  @Test
  void chunksSentOnOtherThreadsFromReusedBuffersAddUpToTheFile() throws Exception {
    byte[] text = text(new Random(11), 5_000);
    Path plain = directory.resolve("a.log");
    Files.write(plain, text);
    Path gzip = directory.resolve("a.log.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gzip))) {
      out.write(text);
    }
    for (Path file : List.of(plain, gzip)) {
      for (int lanes : new int[] {1, 2, 3}) {
        assertThat(sendAll(file, lanes)).as("%s, %d lanes", file, lanes).isEqualTo(text);
      }
    }
  }

  /** Sends the file as {@code quarry ingest} does: lanes in flight, one buffer more, slow sends. */
  private static byte[] sendAll(Path file, int lanes) throws Exception {
    FileChunks chunks = new FileChunks(lanes + 1, 512);
    ExecutorService senders = Executors.newFixedThreadPool(lanes);
    Semaphore inFlight = new Semaphore(lanes);
    List<Future<byte[]>> sent = new ArrayList<>();
    List<byte[]> buffersSeen = new ArrayList<>();
    Random delays = new Random(lanes);
    try {
      long end =
          chunks.forEach(
              file,
              0,
              false,
              (buffer, length, start, chunkEnd, consumed) -> {
                assertThat(chunkEnd - start).isEqualTo(length);
                if (buffersSeen.stream().noneMatch(b -> b == buffer)) {
                  buffersSeen.add(buffer);
                }
                int delay = delays.nextInt(3);
                inFlight.acquire();
                sent.add(
                    senders.submit(
                        () -> {
                          try {
                            Thread.sleep(delay); // the server's answer comes later
                            return Arrays.copyOf(buffer, length);
                          } finally {
                            chunks.release(buffer);
                            inFlight.release();
                          }
                        }));
              });
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      for (Future<byte[]> chunk : sent) {
        byte[] bytes = chunk.get(10, TimeUnit.SECONDS);
        assertThat(bytes[bytes.length - 1]).as("a chunk ends at a line end").isEqualTo((byte) '\n');
        all.write(bytes);
      }
      assertThat(end).isEqualTo(all.size());
      assertThat(sent.size()).as("the file needs many chunks").isGreaterThan(50);
      assertThat(buffersSeen.size()).as("buffers made").isLessThanOrEqualTo(lanes + 1);
      return all.toByteArray();
    } finally {
      senders.shutdownNow();
    }
  }

  /** Lines of random lengths (some longer than half a chunk), some continued by indented lines. */
  private static byte[] text(Random random, int lines) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < lines; i++) {
      text.append(i % 7 == 3 ? "  at frame " : "event ").append(i).append(' ');
      text.append("x".repeat(random.nextInt(i % 100 == 0 ? 300 : 60))).append('\n');
    }
    return text.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }
}
