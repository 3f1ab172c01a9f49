package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The table answers as a map would, through growth and clears, for random large ordinals. */
class LargeOrdinalEntriesTest {
  @Test
  void answersAsAMap() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    LargeOrdinalEntries table = new LargeOrdinalEntries();
    for (int round = 0; round < 5; round++) {
      Map<Long, Integer> expected = new HashMap<>();
      int puts = 1 + random.nextInt(3000);
      for (int i = 0; i < puts; i++) {
        long ordinal = 65_536L + random.nextInt(200_000) * (round % 2 == 0 ? 1L : 1L << 20);
        if (!expected.containsKey(ordinal)) {
          assertThat(table.get(ordinal)).as("seed " + seed).isEqualTo(-1);
          expected.put(ordinal, i);
          table.put(ordinal, i);
        }
      }
      for (Map.Entry<Long, Integer> e : expected.entrySet()) {
        assertThat(table.get(e.getKey())).as("seed " + seed).isEqualTo(e.getValue());
      }
      assertThat(table.get(65_535L)).isEqualTo(-1);
      table.clear();
      for (Long ordinal : expected.keySet()) {
        assertThat(table.get(ordinal)).as("seed " + seed).isEqualTo(-1);
      }
    }
  }
}
