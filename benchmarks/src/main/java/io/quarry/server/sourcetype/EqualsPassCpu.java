package io.quarry.server.sourcetype;

import io.quarry.benchmarks.data.AccessLogGenerator;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@link KeyPlaces#reset} over the reference access log with each {@link EqualsPass} (session 36,
 * vecpass): the lines laid back to back in regions of 2,048 (a block's events), every region passed
 * for {@code JSESSIONID}, thread CPU per round, the two passes alternated in one JVM. Run with
 * {@code --add-modules jdk.incubator.vector} (else only the scalar pass can run):
 *
 * <pre>
 * java --add-modules jdk.incubator.vector -cp benchmarks.jar \
 *   io.quarry.server.sourcetype.EqualsPassCpu [lines] [rounds]
 * </pre>
 */
public final class EqualsPassCpu {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final int LINES_PER_REGION = 2_048;

  private EqualsPassCpu() {}

  public static void main(String[] args) {
    int lines = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    List<byte[]> regions = regions(new AccessLogGenerator(lines, 1).firstLines(lines));
    long bytes = regions.stream().mapToLong(r -> r.length).sum();
    EqualsPass[] passes = {new ScalarEqualsPass("measured"), EqualsPass.CHOSEN};
    long[][] nanos = new long[passes.length][rounds];
    byte[] key = "JSESSIONID".getBytes(StandardCharsets.US_ASCII);
    long sink = 0;
    byte[] decoded = new byte[regions.stream().mapToInt(r -> r.length).max().orElse(0)];
    for (int round = 0; round < rounds; round++) {
      for (int p = 0; p < passes.length; p++) {
        int which = (round + p) % passes.length; // alternate which goes first
        KeyPlaces places = new KeyPlaces(key, passes[which]);
        long spent = 0;
        for (byte[] region : regions) {
          // the region copied first, as a block is decoded just before its pass: in the cache
          System.arraycopy(region, 0, decoded, 0, region.length);
          long start = THREADS.getCurrentThreadCpuTime();
          places.reset(decoded, 0, region.length);
          spent += THREADS.getCurrentThreadCpuTime() - start;
          sink += places.values(decoded, 0, 0, (s, e) -> {});
        }
        nanos[which][round] = spent;
      }
    }
    System.out.printf(
        "%,d lines, %,d bytes, %d regions (sink %d)%n", lines, bytes, regions.size(), sink);
    for (int p = 0; p < passes.length; p++) {
      long[] sorted = nanos[p].clone();
      Arrays.sort(sorted);
      StringBuilder each = new StringBuilder();
      for (long n : nanos[p]) {
        each.append(String.format(" %.1f", n / 1e6));
      }
      System.out.printf(
          "%-28s thread CPU ms per round:%s | best %.1f, median %.1f, %.3f ns a byte%n",
          passes[p], each, sorted[0] / 1e6, sorted[rounds / 2] / 1e6, (double) sorted[0] / bytes);
    }
  }

  private static List<byte[]> regions(List<String> lines) {
    List<byte[]> regions = new ArrayList<>();
    ByteArrayOutputStream region = new ByteArrayOutputStream();
    for (int i = 0; i < lines.size(); i++) {
      region.writeBytes(lines.get(i).getBytes(StandardCharsets.UTF_8));
      if ((i + 1) % LINES_PER_REGION == 0 || i + 1 == lines.size()) {
        regions.add(region.toByteArray());
        region.reset();
      }
    }
    return regions;
  }
}
