package io.quarry.codecs.metric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.junit.jupiter.api.Test;

/** The chunk's documented policies, one case each (see {@link MetricChunkFormat}). */
class MetricChunkPolicyTest {
  private static final long T = 1_790_000_000_000_000L;
  private static final long S = 10_000_000L;

  private static List<String> read(byte[] bytes) throws IOException {
    List<String> points = new ArrayList<>();
    MetricPointIterator iterator = MetricChunkReader.of(bytes).iterator();
    while (iterator.next()) {
      points.add((iterator.timestamp() - T) / S + "=" + Long.toHexString(iterator.valueBits()));
    }
    return points;
  }

  private static String point(int step, double value) {
    return step + "=" + Long.toHexString(Double.doubleToRawLongBits(value));
  }

  @Test
  void anOutOfOrderPointIsRefusedAndTheChunkStaysAsItWas() throws IOException {
    MetricChunkWriter writer = new MetricChunkWriter();
    writer.append(T, 1);
    writer.append(T + 2 * S, 2);
    byte[] before = writer.toByteArray();
    assertThatThrownBy(() -> writer.append(T + S, 3))
        .isInstanceOfSatisfying(
            OutOfOrderPointException.class,
            e -> {
              assertThat(e.timestamp()).isEqualTo(T + S);
              assertThat(e.lastTimestamp()).isEqualTo(T + 2 * S);
            })
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("out-of-order metric point")
        .hasMessageContaining("time order");
    assertThat(writer.toByteArray()).isEqualTo(before);
    assertThat(read(before)).containsExactly(point(0, 1), point(2, 2));
  }

  @Test
  void aPointAtTheLastTimeReplacesItsValue() throws IOException {
    MetricChunkWriter writer = new MetricChunkWriter();
    writer.append(T, 1);
    writer.append(T, 5); // the first point replaced
    writer.append(T + S, 2);
    writer.append(T + 2 * S, 3);
    writer.append(T + 2 * S, 4); // a later point replaced
    writer.append(T + 2 * S, 4); // the same value again: nothing changes
    writer.append(T + 3 * S, 6);
    assertThat(writer.count()).isEqualTo(4);
    byte[] bytes = writer.toByteArray();
    assertThat(read(bytes)).containsExactly(point(0, 5), point(1, 2), point(2, 4), point(3, 6));

    MetricChunkWriter direct = new MetricChunkWriter();
    direct.append(T, 5);
    direct.append(T + S, 2);
    direct.append(T + 2 * S, 4);
    direct.append(T + 3 * S, 6);
    assertThat(bytes)
        .as("the same bytes as writing the winners only")
        .isEqualTo(direct.toByteArray());
  }

  @Test
  void specialDoublesRoundTripBitForBit() throws IOException {
    MetricChunkWriter writer = new MetricChunkWriter();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < SeriesShape.SPECIALS.length; i++) {
      writer.append(T + i * S, SeriesShape.SPECIALS[i]);
      expected.add(point(i, SeriesShape.SPECIALS[i]));
    }
    assertThat(read(writer.toByteArray())).containsExactlyElementsOf(expected);
  }

  @Test
  void anEmptyChunkIsValid() throws IOException {
    MetricChunkWriter writer = new MetricChunkWriter();
    byte[] bytes = writer.toByteArray();
    assertThat(bytes).hasSize(7); // length, version, count, CRC32C
    MetricChunkReader chunk = MetricChunkReader.of(bytes);
    assertThat(chunk.count()).isZero();
    assertThat(chunk.minTime()).isEqualTo(Long.MAX_VALUE);
    assertThat(chunk.maxTime()).isEqualTo(Long.MIN_VALUE);
    assertThat(chunk.overlaps(Long.MIN_VALUE, Long.MAX_VALUE)).isFalse();
    assertThat(chunk.iterator().next()).isFalse();
  }

  @Test
  void aFullChunkRefusesANewTimeButTakesAReplacement() throws IOException {
    MetricChunkWriter writer = new MetricChunkWriter(3);
    for (int i = 0; i < 3; i++) {
      assertThat(writer.isFull()).isFalse();
      writer.append(T + i * S, i);
    }
    assertThat(writer.isFull()).isTrue();
    assertThatThrownBy(() -> writer.append(T + 3 * S, 3))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("full (3 points)");
    writer.append(T + 2 * S, 7);
    assertThat(read(writer.toByteArray())).containsExactly(point(0, 0), point(1, 1), point(2, 7));
    writer.reset();
    assertThat(writer.isFull()).isFalse();
    assertThat(writer.count()).isZero();
  }

  @Test
  void theChunkLimitIsBounded() {
    assertThat(new MetricChunkWriter().maxPoints()).isEqualTo(1024);
    assertThatThrownBy(() -> new MetricChunkWriter(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new MetricChunkWriter(MetricChunkFormat.MAX_POINTS + 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theWholeLongRangeOfTimesIsRepresentable() throws IOException {
    MetricChunkWriter writer = new MetricChunkWriter();
    long[] times = {
      Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE
    };
    for (long time : times) {
      writer.append(time, time);
    }
    MetricChunkReader chunk = MetricChunkReader.of(writer.toByteArray());
    assertThat(chunk.minTime()).isEqualTo(Long.MIN_VALUE);
    assertThat(chunk.maxTime()).isEqualTo(Long.MAX_VALUE);
    MetricPointIterator points = chunk.iterator();
    for (long time : times) {
      assertThat(points.next()).isTrue();
      assertThat(points.timestamp()).isEqualTo(time);
      assertThat(points.value()).isEqualTo((double) time);
    }
    assertThat(points.next()).isFalse();
  }

  @Test
  void aRangeOutsideTheChunkDecodesNothing() throws IOException {
    MetricChunkWriter writer = new MetricChunkWriter();
    for (int i = 0; i < 100; i++) {
      writer.append(T + i * S, i);
    }
    MetricChunkReader chunk = MetricChunkReader.of(writer.toByteArray());
    MetricPointIterator before = chunk.iterator(T - 10 * S, T);
    assertThat(before.next()).isFalse();
    assertThat(before.pointsDecoded()).isZero();
    MetricPointIterator after = chunk.iterator(T + 100 * S, Long.MAX_VALUE);
    assertThat(after.next()).isFalse();
    assertThat(after.pointsDecoded()).isZero();
    MetricPointIterator inside = chunk.iterator(T + 10 * S, T + 12 * S);
    assertThat(inside.next()).isTrue();
    assertThat(inside.value()).isEqualTo(10);
    assertThat(inside.next()).isTrue();
    assertThat(inside.next()).isFalse();
    assertThat(inside.pointsDecoded()).as("stops at the range's end").isEqualTo(13);
  }

  @Test
  void aChunkFromANewerVersionIsRefusedByName() {
    MetricChunkWriter writer = new MetricChunkWriter();
    writer.append(T, 1);
    byte[] bytes = writer.toByteArray();
    bytes[1] = (byte) (MetricChunkFormat.VERSION_CURRENT + 1); // after the one-byte length
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length - 4);
    int checksum = (int) crc.getValue();
    for (int i = 0; i < 4; i++) {
      bytes[bytes.length - 4 + i] = (byte) (checksum >>> (24 - 8 * i));
    }
    assertThatThrownBy(() -> MetricChunkReader.of(bytes))
        .isInstanceOf(IndexFormatTooNewException.class)
        .hasMessageContaining("metric chunk");
  }

  @Test
  void aDamagedChunkNamesTheChecksum() {
    MetricChunkWriter writer = new MetricChunkWriter();
    writer.append(T, 1);
    writer.append(T + S, 2);
    byte[] bytes = writer.toByteArray();
    bytes[bytes.length / 2] ^= 0x10;
    assertThatThrownBy(() -> MetricChunkReader.of(bytes))
        .isInstanceOf(CorruptIndexException.class)
        .hasMessageContaining("metric chunk checksum failed");
  }
}
