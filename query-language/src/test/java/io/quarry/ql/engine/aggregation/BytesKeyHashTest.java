package io.quarry.ql.engine.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link BytesKeyHash} gives each distinct key one dense id, across growth, offsets and clears. */
class BytesKeyHashTest {

  @Test
  void oneDenseIdPerDistinctKey() {
    BytesKeyHash hash = new BytesKeyHash();
    Map<String, Integer> expected = new HashMap<>();
    Random random = new Random(3);
    for (int i = 0; i < 50_000; i++) {
      String key = "k" + random.nextInt(20_000) + (random.nextBoolean() ? "é" : "");
      // the key's bytes somewhere in the middle of a larger array, as in a block
      byte[] utf8 = ("..." + key + "..").getBytes(StandardCharsets.UTF_8);
      int length = key.getBytes(StandardCharsets.UTF_8).length;
      int id = hash.id(utf8, 3, length);
      Integer known = expected.get(key);
      if (known == null) {
        assertThat(id).as(key).isEqualTo(-expected.size() - 1);
        expected.put(key, expected.size());
      } else {
        assertThat(id).as(key).isEqualTo(known);
      }
    }
    assertThat(hash.size()).isEqualTo(expected.size());
    expected.forEach(
        (key, id) -> {
          assertThat(hash.key(id)).isEqualTo(key);
          assertThat(hash.id(key)).isEqualTo(id);
        });
    BytesKeyHash other = new BytesKeyHash();
    assertThat(other.idOf(hash, 5)).isEqualTo(-1);
    assertThat(other.key(0)).isEqualTo(hash.key(5));
    hash.clear();
    assertThat(hash.size()).isZero();
    assertThat(hash.id("k1")).isEqualTo(-1);
    assertThat(hash.id("")).isEqualTo(-2);
    assertThat(hash.key(1)).isEmpty();
  }
}
