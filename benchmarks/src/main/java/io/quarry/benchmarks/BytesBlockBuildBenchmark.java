package io.quarry.benchmarks;

import io.quarry.plugin.api.data.BytesBlock;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A plain string block built value by value, in values per second: pages of 1,024 values of 8 to 40
 * UTF-8 bytes (an extracted field's values), one in 16 a null and one in 8 a number written as its
 * text, appended through {@link BytesBlock.Builder} from slices of one array (as a scan hands them
 * on) and built. The path every string column the engine makes takes, per value; it measures the
 * builder alone, not where the values come from.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class BytesBlockBuildBenchmark {
  static final int VALUES = 1024;

  private byte[] source;
  private int[] offsets;
  private int[] lengths;
  private byte[] kinds; // 0 a text, 1 a null, 2 a number

  @Setup
  public void values() {
    SplittableRandom random = new SplittableRandom(44);
    StringBuilder text = new StringBuilder();
    offsets = new int[VALUES];
    lengths = new int[VALUES];
    kinds = new byte[VALUES];
    for (int i = 0; i < VALUES; i++) {
      int length = 8 + random.nextInt(33);
      offsets[i] = text.length();
      lengths[i] = length;
      for (int c = 0; c < length; c++) {
        text.append((char) ('a' + random.nextInt(26)));
      }
      int kind = random.nextInt(16);
      kinds[i] = (byte) (kind == 0 ? 1 : kind < 3 ? 2 : 0);
    }
    source = text.toString().getBytes(StandardCharsets.US_ASCII);
  }

  @Benchmark
  @OperationsPerInvocation(VALUES)
  public BytesBlock build() {
    BytesBlock.Builder builder = BytesBlock.builder(VALUES);
    for (int i = 0; i < VALUES; i++) {
      switch (kinds[i]) {
        case 1 -> builder.appendNull();
        case 2 -> builder.appendNumber(source, offsets[i], lengths[i]);
        default -> builder.append(source, offsets[i], lengths[i]);
      }
    }
    return builder.build();
  }
}
