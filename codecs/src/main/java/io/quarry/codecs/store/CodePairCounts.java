package io.quarry.codecs.store;

import java.util.Arrays;
import org.apache.lucene.index.CorruptIndexException;

/**
 * A block's events counted by the pair of their codes in two fields ({@link BlockValueCodes}),
 * straight from the packed code bytes (issue 21): {@code stats count by f1, f2} over a block where
 * every event has one value of each adds one per event to a histogram indexed by the two codes'
 * bits side by side, without writing either field's codes out as ints first. Two codes of four bits
 * (a method, a status) are read a byte of each field at a time, two events per byte pair.
 *
 * <p>The histogram is {@code 1 << (bits1 + bits2)} slots, so a code past its block's values (a
 * corrupt block) still lands in a slot: the events counted in the block's {@code size1 × size2}
 * slots must then add up to its events, else the block is refused.
 */
public final class CodePairCounts {
  /** The widest pair of codes counted here (a histogram of at most 1024 slots). */
  static final int MAX_BITS = 10;

  private int[] slots = new int[0];

  /**
   * Adds one to {@code into[code1 * size2 + code2]} for each of the {@code events} events of the
   * blocks {@code first} and {@code second} {@link BlockValueCodes#advance moved to} (each of more
   * than one value; {@code into} has at least {@code size1 × size2} entries); false, nothing
   * counted, when the two codes together are wider than {@value #MAX_BITS} bits (count their
   * decoded codes instead).
   *
   * @throws CorruptIndexException when an event's code is past its block's values
   */
  public boolean count(BlockValueCodes first, BlockValueCodes second, int events, int[] into)
      throws CorruptIndexException {
    int bits1 = first.bits();
    int bits2 = second.bits();
    if (bits1 == 0 || bits2 == 0 || bits1 + bits2 > MAX_BITS) {
      return false;
    }
    if (slots.length < 1 << (bits1 + bits2)) {
      slots = new int[1 << (bits1 + bits2)];
    }
    byte[] bytes1 = first.bytes();
    byte[] bytes2 = second.bytes();
    int base1 = first.base();
    int base2 = second.base();
    int[] slots = this.slots;
    if (bits1 == 4 && bits2 == 4) { // two events a byte of each: slot = code1 << 4 | code2
      int pairs = events >>> 1;
      for (int i = 0; i < pairs; i++) {
        int one = bytes1[base1 + i] & 0xFF;
        int two = bytes2[base2 + i] & 0xFF;
        slots[(one & 0xF) << 4 | (two & 0xF)]++;
        slots[(one & 0xF0) | two >>> 4]++;
      }
      if ((events & 1) != 0) {
        slots[(bytes1[base1 + pairs] & 0xF) << 4 | (bytes2[base2 + pairs] & 0xF)]++;
      }
    } else {
      int mask1 = (1 << bits1) - 1;
      int mask2 = (1 << bits2) - 1;
      for (int e = 0; e < events; e++) {
        int bit1 = e * bits1;
        int bit2 = e * bits2;
        int code1 = (bytes1[base1 + (bit1 >>> 3)] >>> (bit1 & 7)) & mask1;
        int code2 = (bytes2[base2 + (bit2 >>> 3)] >>> (bit2 & 7)) & mask2;
        slots[code1 << bits2 | code2]++;
      }
    }
    int size1 = first.size();
    int size2 = second.size();
    int counted = 0;
    for (int code1 = 0; code1 < size1; code1++) {
      int slot = code1 << bits2;
      int at = code1 * size2;
      for (int code2 = 0; code2 < size2; code2++) {
        int count = slots[slot + code2];
        if (count != 0) {
          into[at + code2] += count;
          slots[slot + code2] = 0;
          counted += count;
        }
      }
    }
    if (counted != events) { // some event's code past its values landed outside the block's slots
      Arrays.fill(slots, 0, 1 << (bits1 + bits2), 0);
      for (int e = 0; e < events; e++) {
        first.code(e); // throws for the first code past the values
        second.code(e);
      }
      throw new CorruptIndexException(
          "block value code pairs count " + counted + " of " + events + " events", "pairs");
    }
    return true;
  }
}
