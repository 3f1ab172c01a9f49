package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.LongBlock;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link BytesCounts} against a {@link HashMap} of the same keys: keys of every length from empty
 * to past sixteen bytes (the hash's eight-byte steps and its overlapping last step), read at
 * offsets inside a larger array, through many growths of the table and the arena; {@link
 * BytesCounts#clear} and {@link BytesCounts#full}.
 */
class BytesCountsTest {

  private static Map<String, Long> held(BytesCounts counts) {
    BytesBlock values = counts.values();
    LongBlock counted = counts.counts();
    Map<String, Long> held = new HashMap<>();
    for (int p = 0; p < values.positionCount(); p++) {
      String key = values.getStringValue(values.getFirstValueIndex(p));
      Long before = held.put(key, counted.getLongValue(counted.getFirstValueIndex(p)));
      assertThat(before).as("key %s held twice", key).isNull();
    }
    return held;
  }

  @Test
  void countsAsAMapOfTheSameKeysWould() {
    Random random = new Random(40);
    BytesCounts counts = new BytesCounts();
    Map<String, Long> expected = new HashMap<>();
    byte[] text = new byte[64];
    for (int i = 0; i < 200_000; i++) {
      int length = random.nextInt(41);
      int offset = random.nextInt(text.length - length);
      int key = random.nextInt(20_000);
      for (int b = 0; b < length; b++) { // a few letters, so that keys differ late or by length
        text[offset + b] = (byte) ('a' + (key >>> (b % 15)) % 3);
      }
      String value = new String(text, offset, length, StandardCharsets.US_ASCII);
      long count = 1 + random.nextInt(3);
      counts.add(text, offset, length, count);
      expected.merge(value, count, Long::sum);
    }
    assertThat(counts.size()).isEqualTo(expected.size());
    assertThat(held(counts)).isEqualTo(expected);
  }

  @Test
  void clearedItCountsAnew() {
    BytesCounts counts = new BytesCounts();
    byte[] a = "10.0.0.1".getBytes(StandardCharsets.US_ASCII);
    counts.add(a, 0, a.length, 5);
    counts.clear();
    assertThat(counts.size()).isZero();
    counts.add(a, 3, 5, 1);
    counts.add(a, 3, 5, 1);
    assertThat(held(counts)).isEqualTo(Map.of("0.0.1", 2L));
  }

  @Test
  void fullAtItsMostKeys() {
    BytesCounts counts = new BytesCounts();
    byte[] key = new byte[4];
    for (int i = 0; i < BytesCounts.MAX_KEYS; i++) {
      key[0] = (byte) i;
      key[1] = (byte) (i >>> 8);
      assertThat(counts.add(key, 0, 4, 1)).isEqualTo(i == BytesCounts.MAX_KEYS - 1);
    }
    assertThat(counts.add(key, 0, 4, 1)).as("a key held: no news").isFalse();
    assertThat(counts.size()).isEqualTo(BytesCounts.MAX_KEYS);
  }
}
