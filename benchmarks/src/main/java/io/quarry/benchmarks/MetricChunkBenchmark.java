package io.quarry.benchmarks;

import io.quarry.codecs.metric.MetricChunkReader;
import io.quarry.codecs.metric.MetricChunkWriter;
import io.quarry.codecs.metric.MetricPointIterator;
import java.io.IOException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The metric chunk codec in points per second (the score is per point: one operation encodes or
 * decodes {@link #POINTS} points, 64 full chunks of 1,024): {@code encode} appends a series into
 * chunks and writes their bytes, {@code decode} checks each chunk (CRC32C) and decodes every point.
 * The series is 10 s apart, one of the realistic shapes of the codec's size test: a {@code counter}
 * (whole numbers, 0–40 more per point, idle stretches) or a {@code gauge} (whole numbers with
 * Gaussian noise, σ = 20). Bytes per point are printed at setup.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class MetricChunkBenchmark {
  static final int POINTS = 64 * MetricChunkWriter.DEFAULT_MAX_POINTS;

  @Param({"counter", "gauge"})
  public String shape;

  private final long[] times = new long[POINTS];
  private final double[] values = new double[POINTS];
  private final MetricChunkWriter writer = new MetricChunkWriter();
  private final MetricChunkReader reader = new MetricChunkReader();
  private final MetricPointIterator points = new MetricPointIterator();
  private byte[] buffer;
  private int encodedLength;

  @Setup
  public void setUp() {
    Random random = new Random(25);
    long time = 1_790_000_000_000_000L;
    double value = random.nextInt(1_000_000);
    boolean idle = false;
    for (int i = 0; i < POINTS; i++) {
      times[i] = time;
      time += 10_000_000L;
      if (shape.equals("counter")) {
        if (random.nextInt(50) == 0) {
          idle = !idle;
        }
        value += idle ? 0 : random.nextInt(41);
      } else {
        value = Math.max(0, value + Math.round(random.nextGaussian() * 20));
      }
      values[i] = value;
    }
    buffer = new byte[POINTS * 20];
    encodedLength = encodeAll();
    System.out.printf(
        "%n%s: %d points, %d bytes, %.3f bytes/point%n",
        shape, POINTS, encodedLength, encodedLength / (double) POINTS);
  }

  private int encodeAll() {
    int at = 0;
    writer.reset();
    for (int i = 0; i < POINTS; i++) {
      if (writer.isFull()) {
        at += writer.writeTo(buffer, at);
        writer.reset();
      }
      writer.append(times[i], values[i]);
    }
    return at + writer.writeTo(buffer, at);
  }

  @Benchmark
  @OperationsPerInvocation(POINTS)
  public int encode() {
    return encodeAll();
  }

  @Benchmark
  @OperationsPerInvocation(POINTS)
  public int decode(Blackhole blackhole) throws IOException {
    int decoded = 0;
    int at = 0;
    while (at < encodedLength) {
      reader.reset(buffer, at, encodedLength - at);
      points.reset(reader);
      while (points.next()) {
        blackhole.consume(points.timestamp());
        blackhole.consume(points.value());
        decoded++;
      }
      at += reader.length();
    }
    return decoded;
  }
}
