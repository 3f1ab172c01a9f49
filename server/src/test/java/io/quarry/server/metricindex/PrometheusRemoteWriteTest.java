package io.quarry.server.metricindex;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.codecs.metricstore.MetricPoint;
import io.quarry.codecs.metricstore.SeriesKey;
import io.quarry.server.metricindex.RemoteWriteRequests.Sample;
import io.quarry.server.metricindex.RemoteWriteRequests.Series;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The remote-write reader against bodies made by real encoders ({@link RemoteWriteRequests}):
 * random series and samples decode to exactly the points sent; unknown and skipped fields, empty
 * label values, staleness markers; malformed bodies are errors naming what is wrong.
 */
class PrometheusRemoteWriteTest {
  @Test
  void randomRequestsDecodeToThePointsSent() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 50; round++) {
      List<Series> series = new ArrayList<>();
      List<MetricPoint> expected = new ArrayList<>();
      int count = random.nextInt(20);
      for (int s = 0; s < count; s++) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("job", "node"); // before __name__: label order is the sender's
        labels.put("__name__", "metric_" + random.nextInt(5));
        labels.put("instance", "host-" + s + ":9100");
        if (random.nextBoolean()) {
          labels.put("mode", "idle é ✓"); // UTF-8
        }
        Map<String, String> dimensions = new LinkedHashMap<>(labels);
        dimensions.remove("__name__");
        if (random.nextBoolean()) {
          labels.put("empty", ""); // an empty value is no label
        }
        SeriesKey key = SeriesKey.of(labels.get("__name__"), dimensions);
        List<Sample> samples = new ArrayList<>();
        int points = random.nextInt(30);
        long time = 1_767_780_000_000L + random.nextInt(1_000_000);
        for (int i = 0; i < points; i++) {
          double value =
              switch (random.nextInt(10)) {
                case 0 -> Double.NaN;
                case 1 -> Double.NEGATIVE_INFINITY;
                case 2 -> -random.nextDouble() * 1e9;
                default -> random.nextInt(1000) / 8.0;
              };
          samples.add(new Sample(time, value));
          expected.add(new MetricPoint(key, time * 1000, value));
          time += 1 + random.nextInt(30_000);
        }
        series.add(new Series(labels, samples));
      }
      List<MetricPoint> decoded =
          PrometheusRemoteWrite.decode(
              RemoteWriteRequests.body(series, random.nextBoolean()), Map.of());
      assertThat(decoded).as("seed %d", seed).hasSize(expected.size());
      for (int i = 0; i < expected.size(); i++) {
        MetricPoint want = expected.get(i);
        MetricPoint got = decoded.get(i);
        assertThat(got.series()).as("seed %d", seed).isEqualTo(want.series());
        assertThat(got.timeMicros()).isEqualTo(want.timeMicros());
        assertThat(Double.doubleToRawLongBits(got.value()))
            .isEqualTo(Double.doubleToRawLongBits(want.value()));
      }
    }
  }

  @Test
  void extraDimensionsFillWhatASeriesLacksAndStalenessMarkersAreNoPoints() throws Exception {
    double stale = Double.longBitsToDouble(PrometheusRemoteWrite.STALE_NAN_BITS);
    byte[] body =
        RemoteWriteRequests.body(
            List.of(
                new Series(
                    Map.of("__name__", "up", "instance", "a:1"),
                    List.of(new Sample(1000, 1), new Sample(2000, stale), new Sample(3000, 0)))),
            true);
    List<MetricPoint> points =
        PrometheusRemoteWrite.decode(body, Map.of("instance", "ignored", "region", "eu"));
    assertThat(points)
        .extracting(p -> p.timeMicros() + "=" + p.value())
        .containsExactly("1000000=1.0", "3000000=0.0");
    assertThat(points.getFirst().series())
        .isEqualTo(SeriesKey.of("up", Map.of("instance", "a:1", "region", "eu")));
    assertThat(PrometheusRemoteWrite.decode(RemoteWriteRequests.body(List.of(), false), Map.of()))
        .isEmpty();
  }

  @Test
  void malformedBodiesAreErrorsSayingWhatIsWrong() throws Exception {
    assertThatThrownBy(
            () ->
                PrometheusRemoteWrite.decode(
                    RemoteWriteRequests.body(
                        List.of(new Series(Map.of("job", "x"), List.of(new Sample(1, 1)))), false),
                    Map.of()))
        .isInstanceOf(PrometheusRemoteWrite.DecodeException.class)
        .hasMessageContaining("time series 1: no __name__ label");
    byte[] protobuf =
        RemoteWriteRequests.protobuf(
            List.of(new Series(Map.of("__name__", "x"), List.of(new Sample(1, 1)))), false);
    assertThatThrownBy(
            () ->
                PrometheusRemoteWrite.parse(Arrays.copyOf(protobuf, protobuf.length - 3), Map.of()))
        .hasMessageContaining("where"); // a field longer than what is left
    assertThatThrownBy(() -> PrometheusRemoteWrite.decode("not snappy at all".getBytes(), Map.of()))
        .isInstanceOf(PrometheusRemoteWrite.DecodeException.class);
    // a body decompressing to more than the limit is refused before decompressing
    byte[] zeros = org.xerial.snappy.Snappy.compress(new byte[100_000]);
    assertThat(zeros.length).isLessThan(10_000);
    assertThatThrownBy(() -> PrometheusRemoteWrite.uncompress(zeros, 99_999))
        .hasMessageContaining("decompresses to 100000 bytes, more than 99999");
    assertThat(PrometheusRemoteWrite.uncompress(zeros, 100_000)).hasSize(100_000);
    byte[] group = {(1 << 3) | 3}; // a start-group: protobuf 2's, not remote-write's
    assertThatThrownBy(() -> PrometheusRemoteWrite.parse(group, Map.of()))
        .hasMessageContaining("wire type 3");
  }
}
