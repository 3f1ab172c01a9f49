package io.quarry.codecs.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The events of a block whose four-bit code ({@link BlockValueCodes}, two codes a byte, the low
 * nibble first) is one of a set, found sixteen events at a time in one {@code long} (issue 21): a
 * filter such as {@code status>=500} keeps a few events of each block, and a loop per event spent
 * as long on the ones it drops as on the ones it keeps.
 *
 * <p>A word's even events' codes are its bytes' low nibbles, its odd events' the high ones; each
 * half is spread one code a byte ({@code 0x0F} lanes), so a lane compares with a code and checks
 * its range without carrying into the next: a lane equal to {@code c} is zero after {@code ^ c},
 * and a lane {@code x ≤ 15} is zero exactly when {@code x + 0x7F} lacks its top bit; a lane is past
 * the block's {@code size} values exactly when {@code x + (16 - size)} has bit 4. The word's set
 * codes compared are the wanted ones, or the unwanted ones when those are fewer (then the lanes
 * that equal none of them are the wanted ones). The events left over after the last whole word are
 * read one by one.
 */
final class NibbleSelect {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long LANES = 0x0F0F_0F0F_0F0F_0F0FL;
  private static final long ONES = 0x0101_0101_0101_0101L;
  private static final long SEVENS = 0x7F7F_7F7F_7F7F_7F7FL;
  private static final long TOPS = 0x8080_8080_8080_8080L;
  private static final long FOURS = 0x1010_1010_1010_1010L;

  private NibbleSelect() {}

  /**
   * Writes into {@code into} the events, in order, of the {@code events} four-bit codes at {@code
   * bytes[base…]} whose code {@code c} has bit {@code c} of {@code wanted} set; returns how many,
   * or -1 when some code is not below {@code size} (a corrupt block: nothing useful was written).
   * The two entries after the last one written may be overwritten (with no event).
   *
   * @param wanted bit {@code c} set for each wanted code {@code c < size}
   * @param size the block's values, at most 16
   */
  static int select(byte[] bytes, int base, int events, int size, int wanted, int[] into) {
    int valid = size >= 16 ? 0xFFFF : (1 << size) - 1;
    wanted &= valid;
    int wantedCount = Integer.bitCount(wanted);
    boolean complement = wantedCount > size - wantedCount;
    int compared = complement ? valid & ~wanted : wanted;
    long past = (16L - Math.min(size, 16)) * ONES; // added to a lane: bit 4 when it is past size
    long bad = 0;
    int selected = 0;
    int words = events >>> 4;
    for (int w = 0; w < words; w++) {
      long word = (long) LONGS.get(bytes, base + 8 * w);
      long low = word & LANES;
      long high = (word >>> 4) & LANES;
      bad |= (low + past) | (high + past);
      long lowHits = 0;
      long highHits = 0;
      for (int codes = compared; codes != 0; codes &= codes - 1) {
        long code = Integer.numberOfTrailingZeros(codes) * ONES;
        lowHits |= ~((low ^ code) + SEVENS);
        highHits |= ~((high ^ code) + SEVENS);
      }
      if (complement) {
        lowHits = ~lowHits;
        highHits = ~highHits;
      }
      // bit 8j: event 16w + 2j (a low nibble); bit 8j + 1: event 16w + 2j + 1 (a high one)
      long hits = ((lowHits & TOPS) >>> 7) | ((highHits & TOPS) >>> 6);
      int first = 16 * w;
      int found = Long.bitCount(hits);
      if (found <= 2 && selected + 2 <= into.length) {
        // a filter keeping few events finds at most two in most words: both written whatever
        // their number (a loop ending after 0, 1 or 2 of them mispredicted its end once a word)
        int bit = Long.numberOfTrailingZeros(hits);
        into[selected] = first + ((bit >>> 3) << 1) + (bit & 1);
        bit = Long.numberOfTrailingZeros(hits & (hits - 1));
        into[selected + 1] = first + ((bit >>> 3) << 1) + (bit & 1);
        selected += found;
      } else {
        while (hits != 0) {
          int bit = Long.numberOfTrailingZeros(hits);
          into[selected++] = first + ((bit >>> 3) << 1) + (bit & 1);
          hits &= hits - 1;
        }
      }
    }
    if (size < 16 && (bad & FOURS) != 0) {
      return -1;
    }
    for (int e = 16 * words; e < events; e++) {
      int code = (bytes[base + (e >>> 1)] >>> ((e & 1) << 2)) & 0xF;
      if (code >= size) {
        return -1;
      }
      into[selected] = e;
      selected += (wanted >>> code) & 1;
    }
    return selected;
  }
}
