package io.quarry.codecs.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.Test;

/**
 * {@link Lz4PrefixDecoder} against lz4-java's encoders (fast, high compression; native and pure
 * Java): any sequence of growing limits gives the block's first bytes exactly, and the whole block
 * when asked for it, whatever mix of literals, long runs, overlapping matches and incompressible
 * bytes it holds; a block cut short or with an offset before its start is reported as corrupt, not
 * read out of bounds.
 */
class Lz4PrefixDecoderTest {
  private static final LZ4Compressor[] COMPRESSORS = {
    LZ4Factory.fastestInstance().fastCompressor(),
    LZ4Factory.fastestInstance().highCompressor(9),
    LZ4Factory.safeInstance().fastCompressor(),
    LZ4Factory.safeInstance().highCompressor(4)
  };

  @Test
  void growingLimitsDecodeTheBlocksFirstBytesExactly() throws IOException {
    SplittableRandom random = new SplittableRandom(40);
    for (int round = 0; round < 300; round++) {
      byte[] raw = text(random, random.nextInt(round < 10 ? 40 : 300_000));
      LZ4Compressor compressor = COMPRESSORS[round % COMPRESSORS.length];
      byte[] compressed = compressor.compress(raw);
      byte[] out = new byte[raw.length + random.nextInt(64)]; // as JournalPrefix: oversized
      ByteBuffer source = ByteBuffer.wrap(compressed);
      ByteBuffer target = ByteBuffer.wrap(out, 0, raw.length).limit(0);
      Lz4PrefixDecoder decoder = Lz4PrefixDecoder.get();
      boolean first = true;
      while (target.limit() < raw.length) {
        int limit =
            random.nextInt(4) == 0
                ? raw.length
                : Math.min(raw.length, target.limit() + 1 + random.nextInt(5000));
        target.limit(limit);
        decoder.decode(source, target, first);
        first = false;
        assertThat(target.position()).isEqualTo(limit);
        assertThat(Arrays.copyOf(out, limit))
            .as("round %d to %d", round, limit)
            .isEqualTo(Arrays.copyOf(raw, limit));
      }
      assertThat(source.position()).as("the whole block read").isEqualTo(compressed.length);
    }
  }

  @Test
  void aNewBlockStartsAfresh() throws IOException {
    byte[] raw = text(new SplittableRandom(1), 10_000);
    byte[] compressed = COMPRESSORS[0].compress(raw);
    byte[] out = new byte[raw.length];
    Lz4PrefixDecoder decoder = Lz4PrefixDecoder.get();
    decoder.decode(ByteBuffer.wrap(compressed), ByteBuffer.wrap(out).limit(777), true);
    ByteBuffer target = ByteBuffer.wrap(out).limit(raw.length);
    decoder.decode(ByteBuffer.wrap(compressed), target, true); // left half way: a block again
    assertThat(out).isEqualTo(raw);
  }

  @Test
  void aDamagedBlockIsReportedAsCorrupt() {
    byte[] raw = text(new SplittableRandom(2), 50_000);
    byte[] compressed = COMPRESSORS[0].compress(raw);
    // cut short: the decoder runs out of input before the output is full
    byte[] cut = Arrays.copyOf(compressed, compressed.length / 2);
    assertThatThrownBy(() -> decodeWhole(cut, raw.length))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("corrupt lz4 block");
    // the first sequence's match pointing before the output's start
    byte[] backwards = {(byte) 0x10, 'a', (byte) 0x05, 0, 'b', 'c', 'd', 'e', 'f'};
    assertThatThrownBy(() -> decodeWhole(backwards, 100))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("offset of 5");
    // a block asked for more than it holds
    assertThatThrownBy(() -> decodeWhole(compressed, raw.length + 10))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("corrupt lz4 block");
    // random bytes: an IOException or (rarely) bytes, never an exception of another kind
    SplittableRandom random = new SplittableRandom(3);
    for (int i = 0; i < 2000; i++) {
      byte[] noise = new byte[1 + random.nextInt(200)];
      random.nextBytes(noise);
      try {
        decodeWhole(noise, 1 + random.nextInt(1000));
      } catch (IOException expected) {
        assertThat(expected).hasMessageContaining("corrupt lz4 block");
      }
    }
  }

  private static void decodeWhole(byte[] compressed, int length) throws IOException {
    Lz4PrefixDecoder.get()
        .decode(ByteBuffer.wrap(compressed), ByteBuffer.wrap(new byte[length]), true);
  }

  /** Log-like lines, long runs of one byte, incompressible stretches, in random order. */
  private static byte[] text(SplittableRandom random, int length) {
    byte[] bytes = new byte[length];
    int at = 0;
    while (at < length) {
      int n = Math.min(length - at, 1 + random.nextInt(400));
      switch (random.nextInt(4)) {
        case 0 -> Arrays.fill(bytes, at, at + n, (byte) random.nextInt(256)); // overlapping match
        case 1 -> {
          for (int i = 0; i < n; i++) {
            bytes[at + i] = (byte) random.nextInt(256);
          }
        }
        default -> {
          byte[] line =
              ("10.0.0."
                      + random.nextInt(40)
                      + " - - [01/Dec/2026:10:"
                      + random.nextInt(60)
                      + "] \"GET /item/"
                      + random.nextInt(100)
                      + " HTTP/1.1\" 200 "
                      + random.nextInt(5000)
                      + "\n")
                  .getBytes(StandardCharsets.US_ASCII);
          n = Math.min(n, line.length);
          System.arraycopy(line, 0, bytes, at, n);
        }
      }
      at += n;
    }
    return bytes;
  }
}
