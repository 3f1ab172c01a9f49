package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link NibbleSelect} against a plain loop over the same packed codes: every block size up to 16,
 * event counts on and off the sixteen-event words, none / some / all codes wanted (fewer wanted
 * than not, and more), codes at an offset in their array, and a code past the block's values caught
 * in a whole word and in the events after the last one.
 */
class NibbleSelectTest {
  @Test
  void selectsTheEventsAPlainLoopSelects() {
    Random random = new Random(21);
    int[] into = new int[200];
    for (int size = 1; size <= 16; size++) {
      for (int events = 0; events <= 130; events++) {
        int[] codes = new int[events];
        for (int e = 0; e < events; e++) {
          codes[e] = random.nextInt(size);
        }
        int base = random.nextInt(5);
        byte[] bytes = pack(codes, base);
        for (int wanted :
            new int[] {0, (1 << size) - 1, 1 << random.nextInt(size), random.nextInt(1 << size)}) {
          int selected = NibbleSelect.select(bytes, base, events, size, wanted, into);
          assertThat(Arrays.stream(into, 0, Math.max(0, selected)).boxed().toList())
              .as("size %d, %d events, wanted %x", size, events, wanted)
              .isEqualTo(plain(codes, wanted));
        }
      }
    }
  }

  @Test
  void aBlockMatchedByAllOrNoneOfItsEvents() {
    int[] codes = new int[1024];
    for (int e = 0; e < codes.length; e++) {
      codes[e] = e % 3 == 0 ? 2 : 5; // two values of a block's eight: 500 and 503
    }
    byte[] bytes = pack(codes, 2);
    int[] into = new int[1024];
    assertThat(NibbleSelect.select(bytes, 2, 1024, 8, 1 << 2 | 1 << 5, into)).isEqualTo(1024);
    assertThat(into).isEqualTo(java.util.stream.IntStream.range(0, 1024).toArray());
    assertThat(NibbleSelect.select(bytes, 2, 1024, 8, 1 << 0 | 1 << 7, into)).isZero();
    assertThat(NibbleSelect.select(bytes, 2, 1023, 8, 1 << 2, into)).isEqualTo(341);
  }

  @Test
  void anArrayOfRoomForTheSelectedEventsOnly() {
    int[] codes = new int[32];
    Arrays.fill(codes, 0, 16, 1); // the first word's events all wanted, one after
    codes[20] = 1;
    int[] into = new int[17];
    assertThat(NibbleSelect.select(pack(codes, 0), 0, 32, 2, 0b10, into)).isEqualTo(17);
    assertThat(into[15]).isEqualTo(15);
    assertThat(into[16]).isEqualTo(20);
  }

  @Test
  void aCodePastTheBlocksValuesIsCaught() {
    for (int events : new int[] {16, 37, 64, 1024, 1023}) {
      for (int at : new int[] {0, 5, events - 1}) {
        int[] codes = new int[events];
        codes[at] = 6; // a block of 6 values: codes 0 to 5
        byte[] bytes = pack(codes, 1);
        int[] into = new int[events];
        assertThat(NibbleSelect.select(bytes, 1, events, 6, 1, into))
            .as("%d events, code past at %d", events, at)
            .isEqualTo(-1);
        assertThat(NibbleSelect.select(bytes, 1, events, 7, 1, into)).isEqualTo(events - 1);
      }
    }
  }

  private static List<Integer> plain(int[] codes, int wanted) {
    List<Integer> selected = new ArrayList<>();
    for (int e = 0; e < codes.length; e++) {
      if ((wanted >>> codes[e] & 1) != 0) {
        selected.add(e);
      }
    }
    return selected;
  }

  /** Four-bit codes two a byte, the first in the low nibble, after {@code base} bytes. */
  private static byte[] pack(int[] codes, int base) {
    byte[] bytes = new byte[base + (codes.length + 1) / 2 + 3];
    Arrays.fill(bytes, 0, base, (byte) 0xFF); // bytes around the codes: never read as codes
    Arrays.fill(bytes, base + (codes.length + 1) / 2, bytes.length, (byte) 0xFF);
    for (int e = 0; e < codes.length; e++) {
      bytes[base + e / 2] |= (byte) (codes[e] << (e % 2 * 4));
    }
    return bytes;
  }
}
