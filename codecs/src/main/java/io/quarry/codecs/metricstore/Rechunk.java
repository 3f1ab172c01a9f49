package io.quarry.codecs.metricstore;

import io.quarry.codecs.metric.MetricChunkReader;
import io.quarry.codecs.metric.MetricChunkWriter;
import io.quarry.codecs.metric.MetricPointIterator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Points of one series gathered in the order they were written, put back in time order into fresh
 * chunks: at equal times the point written last wins. The hot bucket uses it for late points, a
 * merge for a series whose chunks overlap across its source buckets.
 */
final class Rechunk {
  private long[] times;
  private double[] values;
  private int size;

  Rechunk(int capacity) {
    times = new long[Math.max(capacity, 16)];
    values = new double[times.length];
  }

  void add(long time, double value) {
    if (size == times.length) {
      times = Arrays.copyOf(times, size * 2);
      values = Arrays.copyOf(values, size * 2);
    }
    times[size] = time;
    values[size] = value;
    size++;
  }

  /** Adds every point of {@code chunk}. */
  void addAll(Chunk chunk) throws IOException {
    MetricPointIterator points = new MetricPointIterator();
    points.reset(new MetricChunkReader().reset(chunk.bytes(), 0, chunk.bytes().length));
    while (points.next()) {
      add(points.timestamp(), points.value());
    }
  }

  /** The points so far in time order, later-added winning at equal times, as chunks. */
  List<Chunk> chunks(int chunkPoints) {
    int n = size;
    long[] t = times;
    // stable order by time: the order of adding breaks ties, so the later value wins below
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Long.compare(t[a], t[b]));
    List<Chunk> merged = new ArrayList<>();
    MetricChunkWriter writer = new MetricChunkWriter(chunkPoints);
    for (int i = 0; i < n; i++) {
      long time = t[order[i]];
      if (writer.isFull() && time != writer.maxTime()) {
        merged.add(
            new Chunk(writer.toByteArray(), writer.minTime(), writer.maxTime(), writer.count()));
        writer.reset();
      }
      writer.append(time, values[order[i]]); // at the same time as the last: replaces it
    }
    if (writer.count() > 0) {
      merged.add(
          new Chunk(writer.toByteArray(), writer.minTime(), writer.maxTime(), writer.count()));
    }
    return merged;
  }
}
