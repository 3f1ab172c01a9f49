package io.quarry.codecs.metricstore;

import io.quarry.codecs.metric.MetricChunkWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One series of the hot bucket: its sealed chunks, the chunk being filled, and points that came too
 * late for it.
 *
 * <p>Out-of-order policy: a point at or after the open chunk's last time goes into it (at the same
 * time it replaces that point: the last value wins); an earlier one — out of order by any amount,
 * within the hot bucket — is kept aside as a late point. Whoever reads the series (a search, the
 * roll to a warm bucket) then gets every point merged into time order again, the later-arrived
 * value winning at equal times, re-encoded into fresh chunks; the roll keeps that result, so warm
 * chunks never overlap within a bucket. A point older than a bucket already rolled is accepted into
 * the hot bucket as well: buckets may overlap in time, and a series read across them gets its
 * points bucket by bucket (see {@link MetricIndexStore#scan}).
 */
final class HotSeries {
  final int id;
  final SeriesKey key;
  private final int chunkPoints;
  private final List<Chunk> sealed = new ArrayList<>();
  private MetricChunkWriter open;
  private long sealedMax = Long.MIN_VALUE;
  private long[] lateTimes;
  private double[] lateValues;
  private int lateCount;
  private long minTime = Long.MAX_VALUE;
  private long maxTime = Long.MIN_VALUE;

  HotSeries(int id, SeriesKey key, int chunkPoints) {
    this.id = id;
    this.key = key;
    this.chunkPoints = chunkPoints;
  }

  void add(long time, double value) {
    minTime = Math.min(minTime, time);
    maxTime = Math.max(maxTime, time);
    if (open == null) {
      open = new MetricChunkWriter(chunkPoints);
    }
    boolean inOrder = open.count() > 0 ? time >= open.maxTime() : time > sealedMax;
    if (!inOrder) {
      if (lateTimes == null) {
        lateTimes = new long[16];
        lateValues = new double[16];
      } else if (lateCount == lateTimes.length) {
        lateTimes = Arrays.copyOf(lateTimes, lateCount * 2);
        lateValues = Arrays.copyOf(lateValues, lateCount * 2);
      }
      lateTimes[lateCount] = time;
      lateValues[lateCount] = value;
      lateCount++;
      return;
    }
    if (open.isFull() && time != open.maxTime()) {
      seal();
    }
    open.append(time, value);
  }

  private void seal() {
    sealed.add(new Chunk(open.toByteArray(), open.minTime(), open.maxTime(), open.count()));
    sealedMax = open.maxTime();
    open.reset();
  }

  long minTime() {
    return minTime;
  }

  long maxTime() {
    return maxTime;
  }

  /** Bytes held (chunks and late points), roughly. */
  long ramBytes() {
    long bytes = 64L + (open == null ? 0 : open.length()) + 16L * lateCount;
    for (Chunk chunk : sealed) {
      bytes += chunk.bytes().length + 40;
    }
    return bytes;
  }

  /**
   * The series' points as time-ordered, non-overlapping chunks; copies, safe to read after the
   * bucket's lock is released. Merges late points in (and keeps the merge when {@code keep}).
   */
  List<Chunk> chunks(boolean keep) {
    List<Chunk> chunks = new ArrayList<>(sealed.size() + 1);
    chunks.addAll(sealed);
    if (open != null && open.count() > 0) {
      chunks.add(new Chunk(open.toByteArray(), open.minTime(), open.maxTime(), open.count()));
    }
    if (lateCount == 0) {
      return chunks;
    }
    List<Chunk> merged = merge(chunks);
    if (keep) {
      sealed.clear();
      sealed.addAll(merged);
      sealedMax = merged.isEmpty() ? Long.MIN_VALUE : merged.get(merged.size() - 1).maxTime();
      open.reset();
      lateCount = 0;
      lateTimes = null;
      lateValues = null;
    }
    return merged;
  }

  private List<Chunk> merge(List<Chunk> chunks) {
    int total = lateCount;
    for (Chunk chunk : chunks) {
      total += chunk.count();
    }
    Rechunk points = new Rechunk(total);
    try {
      for (Chunk chunk : chunks) {
        points.addAll(chunk);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("a hot chunk written by this process does not read", e);
    }
    for (int i = 0; i < lateCount; i++) {
      points.add(lateTimes[i], lateValues[i]);
    }
    return points.chunks(chunkPoints);
  }
}
