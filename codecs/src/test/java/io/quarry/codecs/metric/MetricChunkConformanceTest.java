package io.quarry.codecs.metric;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.assertj.core.api.Assertions;

/**
 * The metric chunk's randomized conformance suite, in the manner of Lucene's format test cases:
 * random seeds (printed on failure with the line that reproduces it), random series shapes and
 * lengths, random chunk limits. Each test checks the codec against a plain model: the points as
 * arrays, a brute-force filter for ranges, every bit flipped, every prefix. (AssertJ's {@code
 * assertThat} is qualified: LuceneTestCase inherits Hamcrest's.)
 */
public class MetricChunkConformanceTest extends LuceneTestCase {

  /** A series as the test sees it: times and values, after "last value wins". */
  private record Series(long[] times, double[] values) {
    int size() {
      return times.length;
    }
  }

  private static Series randomSeries(Random random, int size) {
    long[] times = new long[size];
    double[] values = new double[size];
    switch (random.nextInt(3)) {
      case 0 -> SeriesShape.regularTimes(random, times);
      case 1 -> SeriesShape.jitteredTimes(random, times);
      default -> SeriesShape.irregularTimes(random, times);
    }
    SeriesShape[] shapes = SeriesShape.values();
    shapes[random.nextInt(shapes.length)].values(random, values);
    return new Series(times, values);
  }

  private static int randomSize(Random random, int maxPoints) {
    return switch (random.nextInt(4)) {
      case 0 -> random.nextInt(Math.min(3, maxPoints) + 1); // 0, 1, 2, 3 points
      case 1 -> maxPoints;
      default -> random.nextInt(maxPoints + 1);
    };
  }

  private static int randomMaxPoints(Random random) {
    return random.nextBoolean()
        ? MetricChunkWriter.DEFAULT_MAX_POINTS
        : 1 + random.nextInt(random.nextBoolean() ? 130 : MetricChunkFormat.MAX_POINTS);
  }

  private static byte[] encode(MetricChunkWriter writer, Series series) {
    writer.reset();
    for (int i = 0; i < series.size(); i++) {
      writer.append(series.times()[i], series.values()[i]);
    }
    return writer.toByteArray();
  }

  private static void assertDecodesTo(MetricChunkReader chunk, Series series) throws IOException {
    Assertions.assertThat(chunk.count()).isEqualTo(series.size());
    if (series.size() > 0) {
      Assertions.assertThat(chunk.minTime()).isEqualTo(series.times()[0]);
      Assertions.assertThat(chunk.maxTime()).isEqualTo(series.times()[series.size() - 1]);
    }
    MetricPointIterator points = chunk.iterator();
    for (int i = 0; i < series.size(); i++) {
      Assertions.assertThat(points.next()).as("point %d of %d", i, series.size()).isTrue();
      Assertions.assertThat(points.timestamp())
          .as("time of point %d", i)
          .isEqualTo(series.times()[i]);
      Assertions.assertThat(points.valueBits())
          .as("bits of point %d (%s)", i, series.values()[i])
          .isEqualTo(Double.doubleToRawLongBits(series.values()[i]));
    }
    Assertions.assertThat(points.next()).isFalse();
    Assertions.assertThat(points.next()).isFalse();
  }

  public void testRoundTripIsExact() throws IOException {
    Random random = random();
    MetricChunkWriter writer = new MetricChunkWriter(randomMaxPoints(random));
    MetricChunkReader reader = new MetricChunkReader();
    for (int iteration = 0; iteration < atLeast(200); iteration++) {
      Series series = randomSeries(random, randomSize(random, writer.maxPoints()));
      byte[] bytes = encode(writer, series);
      Assertions.assertThat(writer.length()).isEqualTo(bytes.length);
      Assertions.assertThat(writer.isFull()).isEqualTo(series.size() == writer.maxPoints());
      assertDecodesTo(reader.reset(bytes, 0, bytes.length), series);
      Assertions.assertThat(reader.length()).isEqualTo(bytes.length);
      Assertions.assertThat(reader.version()).isEqualTo(MetricChunkFormat.VERSION_CURRENT);
    }
  }

  /** Chunks one after another in a buffer (as a file will hold them), each found by its length. */
  public void testChunksReadBackToBackAtAnOffset() throws IOException {
    Random random = random();
    MetricChunkWriter writer = new MetricChunkWriter(randomMaxPoints(random));
    List<Series> serieses = new ArrayList<>();
    byte[] buffer = new byte[1 << 20];
    int start = random.nextInt(100);
    int end = start;
    for (int i = 0; i < atLeast(20); i++) {
      Series series = randomSeries(random, randomSize(random, writer.maxPoints()));
      encode(writer, series);
      if (end + writer.length() > buffer.length) {
        break;
      }
      end += writer.writeTo(buffer, end);
      serieses.add(series);
    }
    MetricChunkReader reader = new MetricChunkReader();
    int at = start;
    for (Series series : serieses) {
      reader.reset(buffer, at, buffer.length - at);
      assertDecodesTo(reader, series);
      at += reader.length();
    }
    Assertions.assertThat(at).isEqualTo(end);
  }

  public void testRangeIterationMatchesBruteForce() throws IOException {
    Random random = random();
    MetricChunkWriter writer = new MetricChunkWriter(randomMaxPoints(random));
    MetricPointIterator points = new MetricPointIterator();
    for (int iteration = 0; iteration < atLeast(100); iteration++) {
      Series series = randomSeries(random, randomSize(random, writer.maxPoints()));
      MetricChunkReader chunk = MetricChunkReader.of(encode(writer, series));
      for (int query = 0; query < 20; query++) {
        long from = randomBound(random, series);
        long to = random.nextInt(5) == 0 ? from : randomBound(random, series);
        if (to < from && random.nextBoolean()) {
          long swap = from;
          from = to;
          to = swap;
        }
        List<Long> expected = new ArrayList<>();
        for (int i = 0; i < series.size(); i++) {
          if (series.times()[i] >= from && series.times()[i] < to) {
            expected.add(series.times()[i]);
            expected.add(Double.doubleToRawLongBits(series.values()[i]));
          }
        }
        List<Long> actual = new ArrayList<>();
        points.reset(chunk, from, to);
        while (points.next()) {
          actual.add(points.timestamp());
          actual.add(points.valueBits());
        }
        Assertions.assertThat(actual).as("points in [%d, %d)", from, to).isEqualTo(expected);
        boolean overlaps =
            series.size() > 0
                && from < to
                && series.times()[0] < to
                && series.times()[series.size() - 1] >= from;
        Assertions.assertThat(chunk.overlaps(from, to)).isEqualTo(overlaps);
        if (!overlaps) {
          Assertions.assertThat(points.pointsDecoded())
              .as("decoded outside the chunk's range")
              .isZero();
        }
      }
    }
  }

  /**
   * A range bound: a point's time, one off it, outside the chunk, or the ends of the long range.
   */
  private static long randomBound(Random random, Series series) {
    if (series.size() == 0 || random.nextInt(10) == 0) {
      return random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    long time = series.times()[random.nextInt(series.size())];
    return switch (random.nextInt(4)) {
      case 0 -> time == Long.MIN_VALUE ? time : time - 1;
      case 1 -> time == Long.MAX_VALUE ? time : time + 1;
      default -> time;
    };
  }

  /** Any point at the time of the last one replaces it; the model keeps the last value per time. */
  public void testLastValueWinsForEqualTimes() throws IOException {
    Random random = random();
    MetricChunkWriter writer = new MetricChunkWriter(randomMaxPoints(random));
    for (int iteration = 0; iteration < atLeast(100); iteration++) {
      Series distinct = randomSeries(random, randomSize(random, writer.maxPoints()));
      writer.reset();
      double[] last = distinct.values().clone();
      for (int i = 0; i < distinct.size(); i++) {
        writer.append(distinct.times()[i], distinct.values()[i]);
        int repeats = random.nextInt(4) == 0 ? 1 + random.nextInt(3) : 0;
        for (int r = 0; r < repeats; r++) {
          last[i] =
              random.nextBoolean()
                  ? last[i]
                  : SeriesShape.SPECIALS[random.nextInt(SeriesShape.SPECIALS.length)];
          writer.append(distinct.times()[i], last[i]);
        }
      }
      Assertions.assertThat(writer.count()).isEqualTo(distinct.size());
      assertDecodesTo(
          MetricChunkReader.of(writer.toByteArray()), new Series(distinct.times(), last));
    }
  }

  /** A writer that is reset writes the same bytes as a new one: no state leaks between chunks. */
  public void testResetWriterWritesTheSameBytes() {
    Random random = random();
    int maxPoints = randomMaxPoints(random);
    MetricChunkWriter reused = new MetricChunkWriter(maxPoints);
    for (int iteration = 0; iteration < atLeast(50); iteration++) {
      Series series = randomSeries(random, randomSize(random, maxPoints));
      Assertions.assertThat(encode(reused, series))
          .isEqualTo(encode(new MetricChunkWriter(maxPoints), series));
    }
  }

  /** Every single bit flipped, anywhere in the chunk, is reported when the chunk is read. */
  public void testFlippedBitIsDetected() throws IOException {
    Random random = random();
    MetricChunkWriter writer = new MetricChunkWriter(randomMaxPoints(random));
    MetricChunkReader reader = new MetricChunkReader();
    for (int iteration = 0; iteration < atLeast(20); iteration++) {
      Series series = randomSeries(random, randomSize(random, Math.min(writer.maxPoints(), 200)));
      byte[] bytes = encode(writer, series);
      int bits = bytes.length * 8;
      int step = bits <= 4096 ? 1 : 1 + random.nextInt(bits / 2048);
      for (int bit = random.nextInt(step); bit < bits; bit += step) {
        byte[] damaged = bytes.clone();
        damaged[bit >>> 3] ^= (byte) (1 << (bit & 7));
        Throwable failure = catchThrowable(() -> decodeAll(reader, damaged));
        Assertions.assertThat(failure)
            .as("bit %d of %d flipped, %d points", bit, bits, series.size())
            .isInstanceOf(IOException.class);
      }
    }
  }

  private static void decodeAll(MetricChunkReader reader, byte[] bytes) throws IOException {
    reader.reset(bytes, 0, bytes.length);
    MetricPointIterator points = reader.iterator();
    while (points.next()) {
      // decode every point
    }
  }

  /** Every prefix of a chunk is refused as truncated, with how much was needed and there. */
  public void testTruncatedChunkIsRejected() throws IOException {
    Random random = random();
    MetricChunkWriter writer = new MetricChunkWriter(randomMaxPoints(random));
    MetricChunkReader reader = new MetricChunkReader();
    for (int iteration = 0; iteration < atLeast(20); iteration++) {
      Series series = randomSeries(random, randomSize(random, writer.maxPoints()));
      byte[] bytes = encode(writer, series);
      for (int length = 0; length < bytes.length; length++) {
        byte[] prefix = Arrays.copyOf(bytes, length);
        assertThatThrownBy(() -> reader.reset(prefix, 0, prefix.length))
            .as("%d of %d bytes", length, bytes.length)
            .isInstanceOf(TruncatedChunkException.class)
            .isInstanceOf(CorruptIndexException.class)
            .hasMessageContaining("metric chunk truncated");
      }
    }
  }

  /**
   * A chunk written in pieces by a writer that fills up holds what was appended, chunk by chunk.
   */
  public void testFullWriterSplitsASeries() throws IOException {
    Random random = random();
    MetricChunkWriter writer = new MetricChunkWriter(1 + random.nextInt(300));
    Series series = randomSeries(random, 1 + random.nextInt(3000));
    List<byte[]> chunks = new ArrayList<>();
    for (int i = 0; i < series.size(); i++) {
      if (writer.isFull()) {
        chunks.add(writer.toByteArray());
        writer.reset();
      }
      writer.append(series.times()[i], series.values()[i]);
    }
    chunks.add(writer.toByteArray());
    int i = 0;
    for (byte[] bytes : chunks) {
      MetricPointIterator points = MetricChunkReader.of(bytes).iterator();
      while (points.next()) {
        Assertions.assertThat(points.timestamp()).isEqualTo(series.times()[i]);
        Assertions.assertThat(points.valueBits())
            .isEqualTo(Double.doubleToRawLongBits(series.values()[i]));
        i++;
      }
    }
    Assertions.assertThat(i).isEqualTo(series.size());
    Assertions.assertThat(chunks)
        .hasSize((series.size() + writer.maxPoints() - 1) / writer.maxPoints());
  }
}
