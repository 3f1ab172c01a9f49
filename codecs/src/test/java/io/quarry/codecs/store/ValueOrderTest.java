package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

/**
 * {@link ValueOrder} orders values as their UTF-8 bytes compare ({@link BytesRef#compareTo}, the
 * order the doc values keep), whatever their characters and however many share a prefix: values
 * that differ past the packed prefix, that end inside it, that hold NUL (which the prefix pads
 * with), characters from U+0080 (the flipped sign) and from U+0100 (16-bit prefixes), surrogate
 * pairs (the byte sort), long runs of one prefix, and more values than the packed index holds.
 */
class ValueOrderTest {
  private static final String[] PIECES = {
    "",
    "\0",
    "a",
    "b",
    "1",
    "19",
    "194.",
    "194.224.",
    "/account/",
    "\u007F",
    "\u0080",
    "\u00E9",
    "\u00FF",
    "\u0100",
    "\u4E2D",
    "\uD7FF",
    "\uE000",
    "\uFFFD",
    "\uD83D\uDE00",
    "z",
  };

  @Test
  void ordersAsUtf8BytesCompare() {
    Random random = new Random(23);
    for (int round = 0; round < 400; round++) {
      int kinds = round % 4 == 0 ? 11 : round % 4 == 1 ? 14 : round % 4 == 2 ? 18 : PIECES.length;
      Set<String> distinct = new LinkedHashSet<>();
      int wanted = 1 + random.nextInt(round % 10 == 0 ? 3_000 : 60);
      for (int i = 0; i < wanted; i++) {
        StringBuilder value = new StringBuilder();
        for (int p = random.nextInt(5); p > 0; p--) {
          value.append(PIECES[random.nextInt(kinds)]);
        }
        distinct.add(value.toString());
      }
      assertOrdered(new ArrayList<>(distinct));
    }
  }

  @Test
  void longRunsOfOnePrefix() {
    List<String> values = new ArrayList<>();
    Random random = new Random(7);
    Set<String> seen = new LinkedHashSet<>();
    while (seen.size() < 2_000) {
      seen.add("sd7sl5" + Long.toString(random.nextLong() >>> 1, 36));
    }
    values.addAll(seen);
    assertOrdered(values);
  }

  @Test
  void moreValuesThanThePackedIndexHolds() {
    List<String> values = new ArrayList<>();
    for (int i = 70_000; i > 0; i--) {
      values.add(Integer.toString(i * 7919 % 1_000_003));
    }
    assertOrdered(new ArrayList<>(new LinkedHashSet<>(values)));
  }

  private static void assertOrdered(List<String> values) {
    String[] array = values.toArray(String[]::new);
    BytesRef[] bytes = new BytesRef[array.length];
    int[] order = ValueOrder.of(array, array.length, bytes);

    List<BytesRef> expected = new ArrayList<>();
    for (String value : values) {
      expected.add(new BytesRef(value));
    }
    expected.sort(Comparator.naturalOrder());
    List<BytesRef> actual = new ArrayList<>();
    for (int index : order) {
      actual.add(bytes[index]);
      assertThat(bytes[index]).isEqualTo(new BytesRef(array[index]));
    }
    assertThat(actual).isEqualTo(expected);
  }
}
