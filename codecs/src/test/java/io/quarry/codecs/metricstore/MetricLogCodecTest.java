package io.quarry.codecs.metricstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The log's hand-written record encoder against Lucene's {@code DataOutput} (the bytes it replaced
 * and the decoder still reads): random batches — keys with and without dimensions, non-ASCII names,
 * times of every size and sign, special doubles — encode to the same bytes and decode back to the
 * same points.
 */
class MetricLogCodecTest {
  @Test
  void encodesAsLuceneDataOutputAndRoundTrips() throws Exception {
    long seed = new Random().nextLong();
    System.out.println("MetricLogCodecTest seed " + seed);
    Random random = new Random(seed);
    Map<SeriesKey, Integer> fileNumbers = new java.util.HashMap<>();
    java.util.List<SeriesKey> fileSeries = new java.util.ArrayList<>();
    for (int round = 0; round < 300; round++) {
      int seriesCount = 1 + random.nextInt(20);
      SeriesKey[] keys = new SeriesKey[seriesCount];
      for (int s = 0; s < seriesCount; s++) {
        keys[s] =
            random.nextInt(5) == 0
                ? SeriesKey.of("m" + s, Map.of())
                : SeriesKey.of(
                    "métrique." + s,
                    Map.of("host", "h" + random.nextInt(3), "région", "€" + s, "z", ""));
      }
      MetricBatch batch = new MetricBatch(1 + random.nextInt(4));
      for (SeriesKey key : keys) {
        batch.addSeries(key);
      }
      int points = random.nextInt(200);
      for (int i = 0; i < points; i++) {
        long time =
            switch (random.nextInt(4)) {
              case 0 -> random.nextLong();
              case 1 -> random.nextInt(1000) - 500;
              case 2 -> Long.MIN_VALUE + random.nextInt(3);
              default -> 1_764_000_000_000_000L + random.nextInt(1 << 30);
            };
        double value =
            switch (random.nextInt(5)) {
              case 0 -> Double.NaN;
              case 1 -> Double.longBitsToDouble(random.nextLong());
              case 2 -> -0.0;
              default -> random.nextInt(100);
            };
        batch.add(random.nextInt(seriesCount), time, value);
      }
      ByteBuffer encoded = MetricLogCodec.encodePoints(batch);
      byte[] pointBytes = Arrays.copyOf(encoded.array(), encoded.limit());
      assertThat(pointBytes)
          .as("seed %d round %d", seed, round)
          .isEqualTo(MetricLogCodec.encodePointsWithDataOutput(batch));
      // version 2: the file's dictionary, carried from record to record
      ByteBuffer refs = MetricLogCodec.seriesRefs(batch, fileNumbers, new java.util.ArrayList<>());
      byte[] payload = new byte[refs.limit() + pointBytes.length];
      System.arraycopy(refs.array(), 0, payload, 0, refs.limit());
      System.arraycopy(pointBytes, 0, payload, refs.limit(), pointBytes.length);
      assertSame(MetricLogCodec.decode(payload, 2, fileSeries), batch);
      assertThat(fileSeries).hasSize(fileNumbers.size());
      // version 1: every series in the record
      org.apache.lucene.store.ByteBuffersDataOutput v1 =
          new org.apache.lucene.store.ByteBuffersDataOutput();
      v1.writeVInt(batch.seriesCount());
      for (int s = 0; s < batch.seriesCount(); s++) {
        MetricLogCodec.writeSeries(v1, batch.series(s));
      }
      v1.writeBytes(pointBytes, pointBytes.length);
      assertSame(MetricLogCodec.decode(v1.toArrayCopy(), 1, new java.util.ArrayList<>()), batch);
    }
  }

  private static void assertSame(MetricBatch decoded, MetricBatch batch) {
    assertThat(decoded.size()).isEqualTo(batch.size());
    for (int i = 0; i < batch.size(); i++) {
      MetricPoint expected = batch.point(i);
      MetricPoint actual = decoded.point(i);
      assertThat(actual.series()).isEqualTo(expected.series());
      assertThat(actual.timeMicros()).isEqualTo(expected.timeMicros());
      assertThat(Double.doubleToRawLongBits(actual.value()))
          .isEqualTo(Double.doubleToRawLongBits(expected.value()));
    }
  }
}
