package io.quarry.codecs.metric;

import java.util.Random;

/**
 * Series shapes for the metric chunk tests: what real metrics look like (counters, gauges, constant
 * series at a 10 s scrape interval) and what stresses the codec (random doubles, huge gaps,
 * negative epochs, every special double). Deterministic for a {@link Random}.
 */
enum SeriesShape {
  /** A request counter: whole numbers, a random 0–40 more every 10 s, idle stretches. */
  COUNTER(true) {
    @Override
    void values(Random random, double[] values) {
      double value = random.nextInt(1_000_000);
      boolean idle = false;
      for (int i = 0; i < values.length; i++) {
        if (random.nextInt(50) == 0) {
          idle = !idle;
        }
        value += idle ? 0 : random.nextInt(41);
        values[i] = value;
      }
    }
  },
  /** A gauge of whole numbers with noise: connections, queue depth, memory in 4 KiB pages. */
  GAUGE_INTEGER_NOISE(true) {
    @Override
    void values(Random random, double[] values) {
      double level = 1_000 + random.nextInt(100_000);
      for (int i = 0; i < values.length; i++) {
        level = Math.max(0, level + Math.round(random.nextGaussian() * 20));
        values[i] = level;
      }
    }
  },
  /** A constant series: a limit, a version, an up flag. */
  CONSTANT(true) {
    @Override
    void values(Random random, double[] values) {
      double value = random.nextBoolean() ? 1 : random.nextInt(1 << 20) * 0.25;
      java.util.Arrays.fill(values, value);
    }
  },
  /** A gauge with noise on decimal fractions (CPU percent to 2 decimals): XOR's weak case. */
  GAUGE_DECIMAL_NOISE(false) {
    @Override
    void values(Random random, double[] values) {
      double level = 20 + random.nextInt(60);
      for (int i = 0; i < values.length; i++) {
        level = Math.min(100, Math.max(0, level + random.nextGaussian()));
        values[i] = Math.round(level * 100) / 100.0;
      }
    }
  },
  /** Random whole numbers over a wide range. */
  INTEGER_VALUED(false) {
    @Override
    void values(Random random, double[] values) {
      for (int i = 0; i < values.length; i++) {
        values[i] = random.nextInt() >> random.nextInt(32);
      }
    }
  },
  /** Any bit pattern, NaN payloads included: the incompressible case. */
  RANDOM_BITS(false) {
    @Override
    void values(Random random, double[] values) {
      for (int i = 0; i < values.length; i++) {
        values[i] = Double.longBitsToDouble(random.nextLong());
      }
    }
  },
  /** Mostly special doubles (NaNs, infinities, signed zeros, extremes), mixed with others. */
  SPECIAL_DOUBLES(false) {
    @Override
    void values(Random random, double[] values) {
      for (int i = 0; i < values.length; i++) {
        values[i] =
            random.nextInt(4) == 0
                ? random.nextGaussian()
                : SPECIALS[random.nextInt(SPECIALS.length)];
      }
    }
  };

  static final double[] SPECIALS = {
    Double.NaN,
    Double.longBitsToDouble(0x7ff0000000000001L), // a signalling NaN
    Double.longBitsToDouble(0xfff8000000000123L), // a negative NaN with a payload
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    0.0,
    -0.0,
    Double.MIN_VALUE,
    -Double.MIN_VALUE,
    Double.MIN_NORMAL,
    Double.MAX_VALUE,
    -Double.MAX_VALUE,
    1.0,
    -1.0
  };

  /** The interval of the realistic shapes: 10 s, in microseconds. */
  static final long INTERVAL = 10_000_000L;

  private final boolean realistic;

  SeriesShape(boolean realistic) {
    this.realistic = realistic;
  }

  /** Whether this is what metrics look like (asserted against Gorilla's 1.5 bytes per point). */
  boolean realistic() {
    return realistic;
  }

  abstract void values(Random random, double[] values);

  /** Scrape times: every 10 s from a 2026 instant. */
  static void regularTimes(Random random, long[] times) {
    long time = 1_790_000_000_000_000L + random.nextInt(1_000_000) * INTERVAL;
    for (int i = 0; i < times.length; i++) {
      times[i] = time;
      time += INTERVAL;
    }
  }

  /** Scrape times every 10 s give or take up to 2 ms of jitter. */
  static void jitteredTimes(Random random, long[] times) {
    regularTimes(random, times);
    for (int i = 0; i < times.length; i++) {
      times[i] += random.nextInt(4_001) - 2_000;
    }
  }

  /**
   * Strictly increasing times with every kind of step: equal intervals, jitter, seconds, missing
   * points, gaps of days and years, negative epochs, and the ends of the long range.
   */
  static void irregularTimes(Random random, long[] times) {
    if (times.length == 0) {
      return;
    }
    long time =
        switch (random.nextInt(4)) {
          case 0 -> Long.MIN_VALUE + random.nextInt(1000);
          case 1 -> -random.nextLong(1L << 50); // before 1970
          case 2 -> random.nextLong();
          default -> 1_790_000_000_000_000L;
        };
    long interval = 1 + random.nextInt(100_000_000);
    for (int i = 0; i < times.length; i++) {
      times[i] = time;
      long step =
          switch (random.nextInt(8)) {
            case 0 -> 1 + random.nextInt(10);
            case 1 -> interval + random.nextInt(1000);
            case 2 -> 1 + random.nextLong(1L << 40); // up to ~12 days
            case 3 -> 1 + random.nextLong(1L << 62); // huge gaps
            default -> interval;
          };
      if (Long.MAX_VALUE - time < step + (times.length - i)) {
        step = Math.max(1, (Long.MAX_VALUE - time) / (times.length - i + 1));
      }
      time += step;
    }
  }
}
