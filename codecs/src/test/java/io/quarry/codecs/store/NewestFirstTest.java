package io.quarry.codecs.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NewestFirstTest {
  /** The expected order by the JDK's stable object sort: newest first, equal times as they came. */
  private static int[] expected(long[] times) {
    Integer[] order = new Integer[times.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Long.compare(times[b], times[a]));
    return Arrays.stream(order).mapToInt(Integer::intValue).toArray();
  }

  @Test
  void emptyAndOne() {
    assertArrayEquals(new int[0], NewestFirst.order(new long[0]));
    assertArrayEquals(new int[] {0}, NewestFirst.order(new long[] {42}));
  }

  @Test
  void oldestFirstWithTiesKeepsTheTiesInOrder() {
    // an access log: ascending seconds, many events a second
    long[] times = {10, 10, 10, 11, 11, 12, 13, 13, 13, 13};
    assertArrayEquals(new int[] {6, 7, 8, 9, 5, 3, 4, 0, 1, 2}, NewestFirst.order(times));
  }

  @Test
  void allEqualKeepsTheOrder() {
    long[] times = new long[37];
    Arrays.fill(times, 5);
    int[] identity = new int[37];
    Arrays.setAll(identity, i -> i);
    assertArrayEquals(identity, NewestFirst.order(times));
  }

  @Test
  void randomBlocksAgreeWithAStableSort() {
    Random random = new Random(41);
    for (int round = 0; round < 2000; round++) {
      int n = random.nextInt(300);
      long[] times = new long[n];
      int spread = 1 + random.nextInt(50); // few distinct times: many ties
      long base = random.nextBoolean() ? Long.MIN_VALUE + 10 : Long.MAX_VALUE - 100;
      int shape = random.nextInt(3);
      for (int i = 0; i < n; i++) {
        long t =
            switch (shape) {
              case 0 -> random.nextInt(spread); // random
              case 1 -> i / spread; // ascending
              default -> (n - i) / spread; // descending
            };
        times[i] = random.nextInt(4) == 0 ? base + t : t;
      }
      assertArrayEquals(
          expected(times), NewestFirst.order(times), "times " + Arrays.toString(times));
    }
  }
}
