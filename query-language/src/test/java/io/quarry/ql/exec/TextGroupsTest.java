package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TextGroupsTest {
  @Test
  void givesDenseIdsLikeAHashMapThroughGrowthAndClears() {
    Random random = new Random(7);
    TextGroups groups = new TextGroups();
    for (int round = 0; round < 3; round++) {
      Map<String, Integer> expected = new HashMap<>();
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
        int id = groups.id(key);
        Integer known = expected.get(key);
        if (known == null) {
          assertThat(id).isEqualTo(-expected.size() - 1);
          expected.put(key, expected.size());
        } else {
          assertThat(id).isEqualTo(known);
        }
      }
      assertThat(groups.size()).isEqualTo(expected.size());
      expected.forEach((key, id) -> assertThat(groups.key(id)).isEqualTo(key));
      groups.clear();
      assertThat(groups.size()).isZero();
    }
  }

  @Test
  void keysWithTheSameHashStayApart() {
    TextGroups groups = new TextGroups();
    // "Aa" and "BB" share String.hashCode, and so does every concatenation of them
    assertThat(groups.id("AaAa")).isEqualTo(-1);
    assertThat(groups.id("AaBB")).isEqualTo(-2);
    assertThat(groups.id("BBAa")).isEqualTo(-3);
    assertThat(groups.id("BBBB")).isEqualTo(-4);
    assertThat(groups.id("AaAa")).isZero();
    assertThat(groups.id("BBBB")).isEqualTo(3);
    assertThat(groups.id("BBAa")).isEqualTo(2);
  }
}
