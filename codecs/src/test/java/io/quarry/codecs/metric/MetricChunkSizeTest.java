package io.quarry.codecs.metric;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Bytes per point for each series shape (sizes, never times): 100 series of 10,240 points in chunks
 * of {@link MetricChunkWriter#DEFAULT_MAX_POINTS}, headers and checksums included. Printed as a
 * table; the realistic shapes are held to what they measure today, and a mix of them to Gorilla's
 * 1.37–1.5 bytes per point.
 */
class MetricChunkSizeTest {
  private static final int SERIES = 100;
  private static final int POINTS = 10 * MetricChunkWriter.DEFAULT_MAX_POINTS;

  static double bytesPerPoint(SeriesShape shape, boolean jitter, long seed) {
    Random random = new Random(seed);
    long[] times = new long[POINTS];
    double[] values = new double[POINTS];
    MetricChunkWriter writer = new MetricChunkWriter();
    long bytes = 0;
    for (int series = 0; series < SERIES; series++) {
      if (jitter) {
        SeriesShape.jitteredTimes(random, times);
      } else {
        SeriesShape.regularTimes(random, times);
      }
      shape.values(random, values);
      writer.reset();
      for (int i = 0; i < POINTS; i++) {
        if (writer.isFull()) {
          bytes += writer.length();
          writer.reset();
        }
        writer.append(times[i], values[i]);
      }
      bytes += writer.length();
    }
    return bytes / (double) (SERIES * POINTS);
  }

  @Test
  void bytesPerPointByShape() {
    long seed = 25;
    Map<SeriesShape, Double> regular = new EnumMap<>(SeriesShape.class);
    StringBuilder table =
        new StringBuilder("shape, bytes/point at 10 s exactly | with ±2 ms jitter\n");
    for (SeriesShape shape : SeriesShape.values()) {
      regular.put(shape, bytesPerPoint(shape, false, seed));
      table.append(
          String.format(
              "%-20s %6.3f | %6.3f%n",
              shape, regular.get(shape), bytesPerPoint(shape, true, seed)));
    }
    System.out.print(table);

    // Gorilla's figure for the realistic shapes at a regular interval
    assertThat(regular.get(SeriesShape.COUNTER)).isLessThan(1.5);
    assertThat(regular.get(SeriesShape.CONSTANT)).isLessThan(0.5);
    // an integer gauge whose noise (σ = 20) spans ~7 bits per XOR: above 1.5 with XOR alone
    assertThat(regular.get(SeriesShape.GAUGE_INTEGER_NOISE)).isLessThan(1.8);
    double mix =
        (regular.get(SeriesShape.COUNTER)
                + regular.get(SeriesShape.GAUGE_INTEGER_NOISE)
                + regular.get(SeriesShape.CONSTANT))
            / 3;
    assertThat(mix).as("counters, integer gauges and constants in equal parts").isLessThan(1.5);
    // the bounds of the format: nothing costs more than the incompressible case's 8 + ~0.4 bytes
    assertThat(regular.get(SeriesShape.RANDOM_BITS)).isLessThan(8.6);
  }
}
