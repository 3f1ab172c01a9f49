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
        // short (packed) and long keys, Latin-1 and other ones, NULs, prefixes of other keys
        String key =
            switch (n % 6) {
              case 0 -> "10.0." + (n / 256) + "." + (n % 256);
              case 1 -> "k" + n + "\u2603";
              case 2 -> "x".repeat(n % 50);
              case 3 -> "\u00e9\u00ff" + (char) (n % 256) + "\0".repeat(n % 17);
              case 4 -> "\0".repeat(n % 20);
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
    // and keys too long to pack, compared as strings
    String aa = "AaAaAaAaAaAaAaAa";
    String bb = "BBBBBBBBBBBBBBBB";
    assertThat(aa.hashCode()).isEqualTo(bb.hashCode());
    assertThat(groups.id(aa)).isEqualTo(-5);
    assertThat(groups.id(bb)).isEqualTo(-6);
    assertThat(groups.id(aa)).isEqualTo(4);
    assertThat(groups.id(bb)).isEqualTo(5);
  }
}
