package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TextCountsTest {
  @Test
  void countsLikeAHashMapThroughGrowthAndDrains() {
    Random random = new Random(7);
    TextCounts counts = new TextCounts();
    for (int round = 0; round < 3; round++) {
      Map<String, Long> expected = new HashMap<>();
      long bytes = 0;
      for (int i = 0; i < 50_000; i++) {
        int n = random.nextInt(20_000);
        // short and long keys, non-Latin-1 ones, keys that are prefixes of others
        String key =
            switch (n % 4) {
              case 0 -> "10.0." + (n / 256) + "." + (n % 256);
              case 1 -> "k" + n + "\u2603";
              case 2 -> "x".repeat(n % 50);
              default -> String.valueOf(n);
            };
        expected.merge(key, 1L, Long::sum);
        bytes += counts.add(key);
      }
      assertThat(counts.size()).isEqualTo(expected.size());
      Map<String, Long> drained = new HashMap<>();
      long freed = counts.drainTo(drained::put);
      assertThat(drained).isEqualTo(expected);
      assertThat(freed).isEqualTo(bytes).isGreaterThan(0);
      assertThat(counts.size()).isZero();
    }
  }

  @Test
  void keysWithTheSameHashStayApart() {
    TextCounts counts = new TextCounts();
    // "Aa" and "BB" share String.hashCode, and so does every concatenation of them
    String[] keys = {"AaAa", "AaBB", "BBAa", "BBBB", "AaAa", "BBBB", "BBBB"};
    for (String key : keys) {
      counts.add(key);
    }
    Map<String, Long> drained = new HashMap<>();
    counts.drainTo(drained::put);
    assertThat(drained)
        .containsExactlyInAnyOrderEntriesOf(Map.of("AaAa", 2L, "AaBB", 1L, "BBAa", 1L, "BBBB", 3L));
  }
}
