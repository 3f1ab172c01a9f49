package io.quarry.codecs.block;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.Event;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * An event block's times read from its first bytes ({@link EventBlockTimes}): a damaged header or
 * section table, decoded whole or only in part, is a {@link CorruptBlockException} or a request to
 * decode more — never another exception, never a value read from bytes past the decoded ones.
 */
class EventBlockTimesTest {
  private static byte[] block() throws IOException {
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      events.add(
          new Event(
              1_700_000_000_000_000L - i * 1_000_000L,
              "event " + i + " status=" + (200 + i % 3),
              "h",
              "s",
              "st",
              Map.of("status", List.of(Integer.toString(200 + i % 3)))));
    }
    return EventBlockWriter.write(events, Set.of());
  }

  @Test
  void anIntactBlocksTimesAreItsEvents() throws Exception {
    byte[] bytes = block();
    int end = EventBlockTimes.end(bytes, 0, bytes.length, bytes.length);
    long[] times = EventBlockTimes.read(bytes, 0, end);
    assertThat(times).hasSize(50);
    assertThat(times[0]).isEqualTo(1_700_000_000_000_000L);
    assertThat(times[49]).isEqualTo(1_700_000_000_000_000L - 49_000_000L);
  }

  /**
   * Each byte of the header and section table damaged in turn, the block decoded whole or only its
   * first bytes (the array holding no more: a read past them is out of bounds).
   */
  @Test
  void aDamagedSectionTableIsACorruptBlock() throws Exception {
    byte[] intact = block();
    int tableEnd = EventBlockTimes.end(intact, 0, intact.length, intact.length);
    for (int at = 0; at < Math.min(tableEnd, 40); at++) {
      for (int value : new int[] {0x00, 0x7F, 0x80, 0xFF}) {
        byte[] damaged = intact.clone();
        damaged[at] = (byte) value;
        for (int available : new int[] {4, 8, 16, 24, 40, 64, intact.length}) {
          byte[] decoded = Arrays.copyOf(damaged, Math.min(available, damaged.length));
          try {
            int end = EventBlockTimes.end(decoded, 0, decoded.length, intact.length);
            if (end >= 0 && end <= decoded.length) {
              EventBlockTimes.read(decoded, 0, end);
            }
          } catch (CorruptBlockException expected) {
            // the damage found
          } catch (RuntimeException e) {
            throw new AssertionError(
                "byte " + at + " set to " + value + ", " + available + " decoded: " + e, e);
          }
        }
      }
    }
  }
}
