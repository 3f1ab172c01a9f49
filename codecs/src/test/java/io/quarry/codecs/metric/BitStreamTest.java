package io.quarry.codecs.metric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.apache.lucene.index.CorruptIndexException;
import org.junit.jupiter.api.Test;

/** The bit writer and reader against each other: random widths across word boundaries. */
class BitStreamTest {
  @Test
  void randomWidthsReadBackAsWritten() throws CorruptIndexException {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    for (int round = 0; round < 200; round++) {
      int count = random.nextInt(500);
      int[] widths = new int[count];
      long[] values = new long[count];
      BitWriter writer = new BitWriter(1);
      long bitLength = 0;
      for (int i = 0; i < count; i++) {
        widths[i] = 1 + random.nextInt(64);
        values[i] = random.nextLong() >>> (64 - widths[i]);
        // bits above the width are ignored by the writer: set some
        long garbage = widths[i] == 64 ? 0 : random.nextLong() << widths[i];
        writer.writeBits(values[i] | garbage, widths[i]);
        bitLength += widths[i];
      }
      assertThat(writer.bitLength()).isEqualTo(bitLength);
      int offset = random.nextInt(9);
      byte[] bytes = new byte[offset + writer.byteLength()];
      writer.copyTo(bytes, offset);
      BitReader reader = new BitReader();
      reader.reset(bytes, offset, writer.byteLength(), "test");
      for (int i = 0; i < count; i++) {
        assertThat(reader.readBits(widths[i]))
            .as("value %d (seed %d)", i, seed)
            .isEqualTo(values[i]);
      }
      long padding = reader.limit() - reader.position();
      assertThat(padding).isBetween(0L, 7L);
      for (long p = 0; p < padding; p++) {
        assertThat(reader.readBit()).as("padding is zero (seed %d)", seed).isFalse();
      }
      assertThatThrownBy(reader::readBit).isInstanceOf(CorruptIndexException.class);
    }
  }

  @Test
  void truncateForgetsTheBitsAfterIt() throws CorruptIndexException {
    BitWriter writer = new BitWriter(1);
    writer.writeBits(-1L, 64);
    writer.writeBits(-1L, 64);
    writer.writeBits(0b101, 3);
    writer.truncate(70);
    writer.writeBits(0, 10);
    byte[] bytes = new byte[writer.byteLength()];
    writer.copyTo(bytes, 0);
    BitReader reader = new BitReader();
    reader.reset(bytes, 0, bytes.length, "test");
    assertThat(reader.readBits(64)).isEqualTo(-1L);
    assertThat(reader.readBits(6)).isEqualTo(0b111111);
    assertThat(reader.readBits(10)).isZero();
    writer.clear();
    assertThat(writer.bitLength()).isZero();
    assertThat(writer.byteLength()).isZero();
  }
}
