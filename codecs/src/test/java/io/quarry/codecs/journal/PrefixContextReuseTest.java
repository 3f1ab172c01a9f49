package io.quarry.codecs.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Review-b (session 33): the thread's zstd context is shared by whole decodes and prefix decodes; a
 * prefix decode left inside a frame, or failed, must not disturb the next decode of either kind,
 * and a block whose compressed bytes end early must fail, not spin.
 */
class PrefixContextReuseTest {
  private static byte[] text(int seed, int bytes) {
    Random random = new Random(seed);
    StringBuilder text = new StringBuilder();
    while (text.length() < bytes) {
      text.append(seed).append(" GET /item/").append(random.nextInt(100_000)).append(" 200\n");
    }
    return text.substring(0, bytes).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] compress(byte[] raw) throws IOException {
    byte[] target = new byte[JournalCodec.ZSTD.maxCompressedLength(raw.length)];
    int length = JournalCodec.ZSTD.compress(raw, raw.length, 1, target, false);
    return Arrays.copyOf(target, length);
  }

  private static byte[] prefix(byte[] compressed, int sourceLength, int rawLength, int upTo)
      throws IOException {
    byte[] out = new byte[rawLength];
    ByteBuffer source = ByteBuffer.wrap(compressed, 0, sourceLength);
    ByteBuffer target = ByteBuffer.wrap(out, 0, rawLength).limit(upTo);
    assertThat(JournalCodec.ZSTD.decompressPrefix(source, target, true)).isTrue();
    return Arrays.copyOf(out, upTo);
  }

  @Test
  void aStoppedOrFailedPrefixLeavesTheContextUsable() throws Exception {
    byte[] a = text(1, 400_000);
    byte[] b = text(2, 300_000);
    byte[] ca = compress(a);
    byte[] cb = compress(b);
    assertThat(prefix(ca, ca.length, a.length, 5000)).isEqualTo(Arrays.copyOf(a, 5000));
    byte[] whole = new byte[b.length];
    JournalCodec.ZSTD.decompress(cb, cb.length, whole, b.length); // after a stopped prefix
    assertThat(whole).isEqualTo(b);
    byte[] damaged = ca.clone();
    for (int i = 20; i < 200; i++) {
      damaged[i] ^= 0x5A;
    }
    try {
      prefix(damaged, damaged.length, a.length, 300_000);
    } catch (IOException expected) {
      // a failed prefix
    }
    JournalCodec.ZSTD.decompress(cb, cb.length, whole, b.length); // after a failed prefix
    assertThat(whole).isEqualTo(b);
    assertThat(prefix(cb, cb.length, b.length, 200_000)).isEqualTo(Arrays.copyOf(b, 200_000));
  }

  @Test
  void compressedBytesEndingEarlyFailAndDoNotSpin() throws Exception {
    byte[] a = text(3, 400_000);
    byte[] ca = compress(a);
    assertTimeoutPreemptively(
        Duration.ofSeconds(10),
        () ->
            assertThatThrownBy(() -> prefix(ca, ca.length / 2, a.length, a.length))
                .isInstanceOf(IOException.class));
  }
}
