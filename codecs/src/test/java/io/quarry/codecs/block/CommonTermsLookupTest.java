package io.quarry.codecs.block;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link CommonTerms.Lookup}, the table a flush asks whether a block's entry is listed, answers as
 * the sorted list's binary search ({@link CommonTerms#contains}) does: for every listed hash, the
 * table's free-slot value (0) listed or not, the extremes, and random hashes near and far.
 */
class CommonTermsLookupTest {
  @Test
  void answersAsTheSortedListDoes() {
    SplittableRandom random = new SplittableRandom(0x5EED_40L);
    for (int round = 0; round < 200; round++) {
      int size = round < 5 ? round : random.nextInt(3000);
      long[] list = new long[size];
      for (int i = 0; i < size; i++) {
        list[i] =
            switch (random.nextInt(8)) {
              case 0 -> 0;
              case 1 -> Long.MIN_VALUE + random.nextInt(4);
              case 2 -> Long.MAX_VALUE - random.nextInt(4);
              case 3 -> random.nextInt(64) << 32; // the same low bits: one home slot if unmixed
              default -> random.nextLong();
            };
      }
      list = Arrays.stream(list).sorted().distinct().toArray();
      CommonTerms.Lookup lookup = new CommonTerms.Lookup(list);
      for (long hash : list) {
        assertThat(lookup.contains(hash)).as("listed %d", hash).isTrue();
        assertThat(lookup.contains(hash + 1)).isEqualTo(CommonTerms.contains(list, hash + 1));
        assertThat(lookup.contains(hash - 1)).isEqualTo(CommonTerms.contains(list, hash - 1));
      }
      for (long probe :
          new long[] {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, random.nextLong(), 7L << 32}) {
        assertThat(lookup.contains(probe))
            .as("probe %d in %d hashes", probe, list.length)
            .isEqualTo(CommonTerms.contains(list, probe));
      }
    }
  }
}
