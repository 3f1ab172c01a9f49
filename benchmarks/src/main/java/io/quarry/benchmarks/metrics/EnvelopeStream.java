package io.quarry.benchmarks.metrics;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The dataset as HEC request bodies, made one at a time as senders ask ({@link #next}), so a
 * dataset of any size is sent without being held in memory: one envelope per time step and host,
 * {@code stepsPerBody} steps per body, written as bytes straight into an array (no strings per
 * point). Bodies come in time order (the dataset's values do); {@link #next} is synchronized and
 * counts the time spent making bodies, which the senders' time includes.
 */
final class EnvelopeStream {
  private final MetricDataset dataset;
  private final int stepsPerBody;
  private final byte[][]
      hostPrefix; // per host: ,"event":"metric","host":"h1","fields":{"region":"us"
  private final byte[][] metricKeys; // per metric: ,"metric_name:cpu.0":
  private int nextStep;
  private long generatingNanos;
  private long bytes;

  /**
   * @param beforeHost the envelope's text between the time and the host name
   * @param afterHost the text between the host name and the region's value
   * @param metricKey what precedes a metric's name in its key ({@code metric_name:} or nothing)
   */
  EnvelopeStream(
      MetricDataset dataset,
      int stepsPerBody,
      String beforeHost,
      String afterHost,
      String metricKey) {
    this.dataset = dataset;
    this.stepsPerBody = stepsPerBody;
    this.hostPrefix = new byte[dataset.hosts][];
    for (int h = 0; h < dataset.hosts; h++) {
      hostPrefix[h] =
          (beforeHost + MetricDataset.host(h) + afterHost + MetricDataset.region(h) + "\"")
              .getBytes(StandardCharsets.UTF_8);
    }
    this.metricKeys = new byte[dataset.metrics][];
    for (int m = 0; m < dataset.metrics; m++) {
      metricKeys[m] =
          (",\"" + metricKey + dataset.metric(m) + "\":").getBytes(StandardCharsets.UTF_8);
    }
  }

  /** The next body, or null when the dataset is sent. */
  synchronized byte[] next() {
    if (nextStep >= dataset.points) {
      return null;
    }
    long started = System.nanoTime();
    byte[] out = new byte[1 << 16];
    int at = 0;
    int end = Math.min(dataset.points, nextStep + stepsPerBody);
    for (int s = nextStep; s < end; s++) {
      long time = dataset.startSeconds + s * MetricDataset.INTERVAL_SECONDS;
      for (int h = 0; h < dataset.hosts; h++) {
        int room = 64 + hostPrefix[h].length + dataset.metrics * 48;
        if (out.length - at < room) {
          out = Arrays.copyOf(out, Math.max(out.length * 2, at + room));
        }
        at = put(out, at, "{\"time\":");
        at = putLong(out, at, time);
        System.arraycopy(hostPrefix[h], 0, out, at, hostPrefix[h].length);
        at += hostPrefix[h].length;
        for (int m = 0; m < dataset.metrics; m++) {
          byte[] key = metricKeys[m];
          System.arraycopy(key, 0, out, at, key.length);
          at += key.length;
          at = putNumber(out, at, dataset.next(h, m));
        }
        at = put(out, at, "}}\n");
      }
    }
    nextStep = end;
    bytes += at;
    generatingNanos += System.nanoTime() - started;
    return Arrays.copyOf(out, at);
  }

  synchronized double generatingSeconds() {
    return generatingNanos / 1e9;
  }

  synchronized long bytes() {
    return bytes;
  }

  private static int put(byte[] out, int at, String ascii) {
    for (int i = 0; i < ascii.length(); i++) {
      out[at++] = (byte) ascii.charAt(i);
    }
    return at;
  }

  /** A value as JSON: whole numbers without a fraction, others as {@link Double#toString}. */
  private static int putNumber(byte[] out, int at, double value) {
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return putLong(out, at, (long) value);
    }
    if (value * 2 == Math.rint(value * 2) && Math.abs(value) < 1e15) { // half units
      if (value < 0) {
        out[at++] = '-';
      }
      at = putLong(out, at, (long) Math.abs(value));
      return put(out, at, ".5");
    }
    return put(out, at, Double.toString(value));
  }

  private static int putLong(byte[] out, int at, long value) {
    if (value < 0) {
      out[at++] = '-';
      value = -value;
    }
    int digits = 1;
    for (long v = value; v >= 10; v /= 10) {
      digits++;
    }
    for (int i = at + digits - 1; i >= at; i--) {
      out[i] = (byte) ('0' + value % 10);
      value /= 10;
    }
    return at + digits;
  }
}
