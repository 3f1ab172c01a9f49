package io.quarry.server.sourcetype;

import io.quarry.benchmarks.data.AccessLogGenerator;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The key=value scan of a block's region ({@link KeyPlaces#reset} for {@code JSESSIONID}, then the
 * value of each of its events) over the reference access log, with the vector {@link EqualsPass}
 * (the one the JVM chose: the fork runs with {@code --add-modules jdk.incubator.vector}, as the
 * server) and the scalar one. One operation is one region of 2,048 lines (about 400 KB; the bytes
 * are printed at setup). The {@code vector} case fails at setup in a JVM that chose the scalar pass
 * rather than measure it under the vector's name.
 *
 * <pre>
 * ./quarry jmh KeyValueScanBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--add-modules=jdk.incubator.vector")
public class KeyValueScanBenchmark {
  private static final int LINES_PER_REGION = 2_048;
  private static final int REGIONS = 8;

  @Param({"vector", "scalar"})
  public String pass;

  private final List<byte[]> regions = new ArrayList<>();
  private final List<int[]> starts = new ArrayList<>(); // each region's lines' offsets, and its end
  private KeyPlaces places;
  private int next;

  @Setup(Level.Trial)
  public void load() {
    EqualsPass chosen =
        switch (pass) {
          case "vector" -> EqualsPass.CHOSEN;
          case "scalar" -> new ScalarEqualsPass("measured");
          default -> throw new IllegalArgumentException("no pass " + pass);
        };
    if (pass.equals("vector") && !chosen.toString().startsWith("vector")) {
      throw new IllegalStateException(
          "this JVM runs " + chosen + ": start it with --add-modules jdk.incubator.vector");
    }
    places = new KeyPlaces("JSESSIONID".getBytes(StandardCharsets.US_ASCII), chosen);
    List<String> lines =
        new AccessLogGenerator(LINES_PER_REGION * REGIONS, 1)
            .firstLines(LINES_PER_REGION * REGIONS);
    ByteArrayOutputStream region = new ByteArrayOutputStream();
    List<Integer> offsets = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      offsets.add(region.size());
      region.writeBytes(lines.get(i).getBytes(StandardCharsets.UTF_8));
      if ((i + 1) % LINES_PER_REGION == 0 || i + 1 == lines.size()) {
        offsets.add(region.size());
        regions.add(region.toByteArray());
        starts.add(offsets.stream().mapToInt(Integer::intValue).toArray());
        region.reset();
        offsets.clear();
      }
    }
    long bytes = regions.stream().mapToLong(r -> r.length).sum();
    System.out.printf(
        "%n%s: %d regions, %,d bytes a region on average%n",
        chosen, regions.size(), bytes / regions.size());
  }

  /** One region: its places of the key, then each line's values. */
  @Benchmark
  public int region() {
    int which = next;
    next = (next + 1) % regions.size();
    byte[] bytes = regions.get(which);
    int[] lines = starts.get(which);
    places.reset(bytes, 0, bytes.length);
    int found = 0;
    for (int i = 0; i + 1 < lines.length; i++) {
      found += places.values(bytes, lines[i], lines[i + 1] - lines[i], (s, e) -> {});
    }
    return found;
  }
}
