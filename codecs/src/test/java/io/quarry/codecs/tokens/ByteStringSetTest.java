package io.quarry.codecs.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The set's hash and compare read a string's last bytes as one long wherever the array allows; they
 * must agree with reading them byte by byte at every offset, length and distance from the array's
 * ends, and the set must hold each distinct string once whatever its hashes.
 */
class ByteStringSetTest {

  /** The {@code length} bytes at {@code at}, little-endian, one at a time. */
  private static long bytewise(byte[] bytes, int at, int length) {
    long value = 0;
    for (int i = 0; i < length; i++) {
      value |= (bytes[at + i] & 0xFFL) << (8 * i);
    }
    return value;
  }

  @Test
  void tailReadsTheSameBytesAtEveryPlaceOfArraysOfEverySize() {
    Random random = new Random(7);
    for (int size = 0; size <= 24; size++) {
      byte[] bytes = new byte[size];
      random.nextBytes(bytes);
      for (int at = 0; at <= size; at++) {
        for (int length = 0; length < Long.BYTES && at + length <= size; length++) {
          assertThat(ByteStringSet.tail(bytes, at, length))
              .as("size %d at %d length %d", size, at, length)
              .isEqualTo(bytewise(bytes, at, length));
        }
      }
    }
  }

  @Test
  void sameAndHashSeeEveryByteOfTheRange() {
    Random random = new Random(11);
    for (int length = 0; length <= 20; length++) {
      byte[] a = new byte[length + random.nextInt(10)];
      random.nextBytes(a);
      int aFrom = a.length - length;
      byte[] b = new byte[length + 3];
      System.arraycopy(a, aFrom, b, 1, length);
      assertThat(ByteStringSet.same(a, aFrom, b, 1, length)).isTrue();
      assertThat(ByteStringSet.hash(a, aFrom, length)).isEqualTo(ByteStringSet.hash(b, 1, length));
      for (int i = 0; i < length; i++) { // a difference at any byte, even the range's last
        b[1 + i] ^= 0x40;
        assertThat(ByteStringSet.same(a, aFrom, b, 1, length))
            .as("byte %d of %d", i, length)
            .isFalse();
        b[1 + i] ^= 0x40;
      }
    }
  }

  @Test
  void holdsEachDistinctStringOnceThroughGrowthAndClear() {
    Random random = new Random(3);
    ByteStringSet set = new ByteStringSet();
    for (int round = 0; round < 3; round++) {
      Map<String, Integer> ids = new HashMap<>();
      List<String> order = new ArrayList<>();
      for (int i = 0; i < 20_000; i++) {
        String text = Integer.toString(random.nextInt(5_000), 36 - round);
        byte[] bytes = ("." + text + ".").getBytes(StandardCharsets.US_ASCII);
        int hash = ByteStringSet.hash(bytes, 1, text.length());
        boolean isNew = !ids.containsKey(text);
        assertThat(set.add(bytes, 1, text.length(), hash)).as(text).isEqualTo(isNew);
        if (isNew) {
          ids.put(text, order.size());
          order.add(text);
        }
      }
      assertThat(set.size()).isEqualTo(order.size());
      for (int id = 0; id < set.size(); id++) {
        String held =
            new String(
                set.pool(), set.start(id), set.end(id) - set.start(id), StandardCharsets.US_ASCII);
        assertThat(held).isEqualTo(order.get(id));
      }
      set.clear();
      assertThat(set.size()).isZero();
    }
  }

  /**
   * Strings a probe could take for each other: its key is a string's bytes when under eight long,
   * its first seven bytes and 0xFF when longer — so equal keys for strings of eight bytes or more
   * whose first seven agree, which the pool must tell apart.
   */
  private static final List<String> NEAR =
      List.of(
          "",
          "\0",
          "a",
          "a\0",
          "a\0\0",
          "abcdefg", // 7 bytes, then 8 with its prefix
          "abcdefgh",
          "abcdefg\0",
          "abcdefg\u00FF", // the 0xFF a long string's key has in its high byte
          "abcdefgi",
          "abcdefghi", // the first 8 equal, tails differ
          "abcdefghj",
          "abcdefgh12345678",
          "abcdefgh12345679",
          "abcdefgh1234567",
          "abcdefgX12345678",
          "abcdef",
          "abcdef\0");

  @Test
  void tellsApartStringsWhoseKeysOrFirstBytesAgree() {
    assertHoldsEachOnce(false);
  }

  @Test
  void tellsThemApartWhenEveryHashCollides() {
    assertHoldsEachOnce(true); // every probe meets every string: only the keys and pool decide
  }

  private static void assertHoldsEachOnce(boolean sameHash) {
    ByteStringSet set = new ByteStringSet();
    for (int round = 0; round < 2; round++) {
      for (String text : NEAR) {
        byte[] bytes = ("<" + text + ">").getBytes(StandardCharsets.ISO_8859_1);
        int length = text.length();
        boolean added =
            sameHash
                ? set.add(bytes, 1, length, 0)
                : round == 0
                    ? set.add(bytes, 1, length)
                    : set.add(bytes, 1, length, ByteStringSet.hash(bytes, 1, length));
        assertThat(added).as("round %d %s", round, text.replace("\0", "\\0")).isEqualTo(round == 0);
      }
    }
    assertThat(set.size()).isEqualTo(NEAR.size());
    for (int id = 0; id < set.size(); id++) {
      assertThat(
              new String(
                  set.pool(),
                  set.start(id),
                  set.end(id) - set.start(id),
                  StandardCharsets.ISO_8859_1))
          .isEqualTo(NEAR.get(id));
    }
  }
}
