package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.MemoryLimitExceededException;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.ql.exec.SearchResources;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link BytesCounts} against a {@link HashMap} of the same keys: keys of every length from empty
 * to past sixteen bytes (the hash's eight-byte steps and its overlapping last step), read at
 * offsets inside a larger array, through many growths of the table and the arena; {@link
 * BytesCounts#clear} (also of a table grown and probed past its first slots) and the most keys; its
 * arrays charged to a real search memory account as they grow, the typed memory error over the
 * limit, and all of it given back once.
 */
class BytesCountsTest {

  private static Map<String, Long> held(BytesCounts counts) {
    BytesBlock values = counts.values();
    LongBlock counted = counts.counts();
    Map<String, Long> held = new HashMap<>();
    for (int p = 0; p < values.positionCount(); p++) {
      String key = values.getStringValue(values.getFirstValueIndex(p));
      Long before = held.put(key, counted.getLongValue(counted.getFirstValueIndex(p)));
      assertThat(before).as("key %s held twice", key).isNull();
    }
    return held;
  }

  @Test
  void countsAsAMapOfTheSameKeysWould() {
    Random random = new Random(40);
    BytesCounts counts = new BytesCounts(MemoryTracker.unbounded("stats"));
    Map<String, Long> expected = new HashMap<>();
    byte[] text = new byte[64];
    for (int i = 0; i < 200_000; i++) {
      int length = random.nextInt(41);
      int offset = random.nextInt(text.length - length);
      int key = random.nextInt(20_000);
      for (int b = 0; b < length; b++) { // a few letters, so that keys differ late or by length
        text[offset + b] = (byte) ('a' + (key >>> (b % 15)) % 3);
      }
      String value = new String(text, offset, length, StandardCharsets.US_ASCII);
      long count = 1 + random.nextInt(3);
      counts.add(text, offset, length, count);
      expected.merge(value, count, Long::sum);
    }
    assertThat(counts.size()).isEqualTo(expected.size());
    assertThat(held(counts)).isEqualTo(expected);
  }

  private static Map<String, List<Long>> asLists(Map<String, long[]> rows) {
    Map<String, List<Long>> lists = new HashMap<>();
    rows.forEach((key, row) -> lists.put(key, java.util.Arrays.stream(row).boxed().toList()));
    return lists;
  }

  @Test
  void anUntimedTableCountsRowsOneByOneAndInBatchesAsAMapWould() {
    BytesCounts counts = new BytesCounts(MemoryTracker.unbounded("stats"), false, 1 << 18);
    assertThat(counts.timed()).isFalse();
    int n = 200;
    byte[] text = new byte[n * 8];
    int[] starts = new int[n];
    int[] lengths = new int[n];
    long[] times = new long[n];
    Map<String, Long> expected = new HashMap<>();
    Random random = new Random(44);
    for (int round = 0; round < 50; round++) {
      for (int i = 0; i < n; i++) {
        String key = "k" + random.nextInt(3_000); // records side by side, neighbours intact
        byte[] bytes = key.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(bytes, 0, text, i * 8, bytes.length);
        starts[i] = i * 8;
        lengths[i] = bytes.length;
        times[i] = random.nextLong();
        expected.merge(key, 1L, Long::sum);
      }
      if (round % 2 == 0) {
        assertThat(counts.addRows(text, starts, lengths, times, n)).isEqualTo(n);
      } else {
        for (int i = 0; i < n; i++) {
          assertThat(counts.addRow(text, starts[i], lengths[i], times[i])).isFalse();
        }
      }
    }
    BytesBlock values = counts.values();
    LongBlock counted = counts.counts();
    Map<String, Long> held = new HashMap<>();
    for (int p = 0; p < values.positionCount(); p++) {
      held.put(values.getStringValue(p), counted.getLongValue(p));
    }
    assertThat(held).isEqualTo(expected);
    assertThatThrownBy(counts::minTimes).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aTimedTableKeepsEachKeysCountAndTimesAsAMapWould() {
    Random random = new Random(41);
    BytesCounts counts = new BytesCounts(MemoryTracker.unbounded("stats"), true, 1 << 18);
    byte[] text = new byte[64];
    for (int round = 0; round < 2; round++) { // the second after a clear of a grown table
      Map<String, long[]> expected = new HashMap<>();
      for (int i = 0; i < 150_000; i++) {
        int length = random.nextInt(30);
        int offset = random.nextInt(text.length - length);
        int key = random.nextInt(30_000);
        for (int b = 0; b < length; b++) {
          text[offset + b] = (byte) ('a' + (key >>> (b % 15)) % 3);
        }
        long time = random.nextLong() >> 8; // before and after the epoch
        String value = new String(text, offset, length, StandardCharsets.US_ASCII);
        assertThat(counts.addRow(text, offset, length, time)).isFalse();
        long[] row =
            expected.computeIfAbsent(value, k -> new long[] {0, Long.MAX_VALUE, Long.MIN_VALUE});
        row[0]++;
        row[1] = Math.min(row[1], time);
        row[2] = Math.max(row[2], time);
      }
      BytesBlock values = counts.values();
      LongBlock counted = counts.counts();
      LongBlock min = counts.minTimes();
      LongBlock max = counts.maxTimes();
      Map<String, long[]> held = new HashMap<>();
      for (int p = 0; p < values.positionCount(); p++) {
        held.put(
            values.getStringValue(p),
            new long[] {counted.getLongValue(p), min.getLongValue(p), max.getLongValue(p)});
      }
      assertThat(asLists(held)).isEqualTo(asLists(expected));
      counts.clear();
    }
    assertThatThrownBy(() -> new BytesCounts(MemoryTracker.unbounded("s")).minTimes())
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void keysAddedInBatchesAsOneByOne() {
    Random random = new Random(42);
    BytesCounts batched = new BytesCounts(MemoryTracker.unbounded("stats"), true, 1 << 18);
    BytesCounts single = new BytesCounts(MemoryTracker.unbounded("stats"), true, 1 << 18);
    byte[] text = new byte[1 << 16];
    for (int i = 0; i < text.length; i++) {
      text[i] = (byte) ('a' + random.nextInt(4));
    }
    for (int round = 0; round < 200; round++) {
      int n = 1 + random.nextInt(300);
      int[] starts = new int[n];
      int[] lengths = new int[n];
      long[] times = new long[n];
      for (int i = 0; i < n; i++) {
        lengths[i] = random.nextInt(24);
        starts[i] = random.nextInt(2_000) * 3; // keys met again, and differing by length
        times[i] = random.nextLong() >> 8;
        single.addRow(text, starts[i], lengths[i], times[i]);
      }
      assertThat(batched.addRows(text, starts, lengths, times, n)).isEqualTo(n);
    }
    assertThat(batched.size()).isEqualTo(single.size());
    assertThat(asLists(timedHeld(batched))).isEqualTo(asLists(timedHeld(single)));
  }

  @Test
  void aBatchStopsAfterTheKeyThatFillsTheTableAndAKeyAtTheArraysEndIsReadWhole() {
    int keys = 150;
    byte[] text = new byte[4 * keys]; // key i at 4 * i: the last ends the array (no word after it)
    int[] starts = new int[keys];
    int[] lengths = new int[keys];
    long[] times = new long[keys];
    for (int i = 0; i < keys; i++) {
      byte[] key = String.format("%04d", i).getBytes(StandardCharsets.US_ASCII);
      System.arraycopy(key, 0, text, 4 * i, 4);
      starts[i] = 4 * i;
      lengths[i] = i == keys - 1 ? 3 : 4; // the last one shorter: the array's last bytes only
      times[i] = 1_000L * i;
    }
    BytesCounts counts = new BytesCounts(MemoryTracker.unbounded("stats"), true, 100);
    assertThat(counts.addRows(text, starts, lengths, times, keys))
        .as("stops after the 100th key, which filled the table")
        .isEqualTo(100);
    assertThat(counts.size()).isEqualTo(100);
    assertThat(timedHeld(counts).get("0099")).containsExactly(1, 99_000, 99_000);
    counts.clear();
    int rest = keys - 100;
    System.arraycopy(starts, 100, starts, 0, rest);
    System.arraycopy(lengths, 100, lengths, 0, rest);
    System.arraycopy(times, 100, times, 0, rest);
    assertThat(counts.addRows(text, starts, lengths, times, rest)).isEqualTo(rest);
    Map<String, long[]> held = timedHeld(counts);
    assertThat(held).hasSize(rest).doesNotContainKey("0099");
    assertThat(held.get("014"))
        .as("the array's last three bytes")
        .containsExactly(1, 149_000, 149_000);
    assertThat(held.get("0148")).containsExactly(1, 148_000, 148_000);
  }

  private static Map<String, long[]> timedHeld(BytesCounts counts) {
    BytesBlock values = counts.values();
    LongBlock counted = counts.counts();
    LongBlock min = counts.minTimes();
    LongBlock max = counts.maxTimes();
    Map<String, long[]> held = new HashMap<>();
    for (int p = 0; p < values.positionCount(); p++) {
      held.put(
          values.getStringValue(p),
          new long[] {counted.getLongValue(p), min.getLongValue(p), max.getLongValue(p)});
    }
    return held;
  }

  @Test
  void clearedItCountsAnew() {
    BytesCounts counts = new BytesCounts(MemoryTracker.unbounded("stats"));
    byte[] a = "10.0.0.1".getBytes(StandardCharsets.US_ASCII);
    counts.add(a, 0, a.length, 5);
    counts.clear();
    assertThat(counts.size()).isZero();
    counts.add(a, 3, 5, 1);
    counts.add(a, 3, 5, 1);
    assertThat(held(counts)).isEqualTo(Map.of("0.0.1", 2L));
  }

  @Test
  void fullAtItsMostKeys() {
    BytesCounts counts = new BytesCounts(MemoryTracker.unbounded("stats"));
    byte[] key = new byte[4];
    for (int i = 0; i < BytesCounts.MAX_KEYS; i++) {
      key[0] = (byte) i;
      key[1] = (byte) (i >>> 8);
      assertThat(counts.add(key, 0, 4, 1)).isEqualTo(i == BytesCounts.MAX_KEYS - 1);
    }
    assertThat(counts.add(key, 0, 4, 1)).as("a key held: no news").isFalse();
    assertThat(counts.size()).isEqualTo(BytesCounts.MAX_KEYS);
  }

  /** Key {@code i} of a family {@code salt} in a few letters, so that keys collide and probe. */
  private static byte[] key(int i, int salt) {
    return ("k" + salt + "-" + Integer.toString(i, 3)).getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void clearedAfterGrowingItCountsOnlyTheNewKeys() {
    BytesCounts counts = new BytesCounts(MemoryTracker.unbounded("stats"));
    for (int i = 0; i < 30_000; i++) { // many growths of the table, long and short keys
      byte[] key = i % 2 == 0 ? key(i, 1) : ("long-key-past-sixteen-" + i).getBytes();
      counts.add(key, 0, key.length, 1);
    }
    counts.clear();
    assertThat(counts.size()).isZero();
    assertThat(held(counts)).isEmpty();
    Map<String, Long> expected = new HashMap<>();
    for (int i = 0; i < 5_000; i++) { // half of them held before, half new
      byte[] key = key(i * 3, i % 2 == 0 ? 1 : 2);
      counts.add(key, 0, key.length, 2);
      expected.merge(new String(key, StandardCharsets.US_ASCII), 2L, Long::sum);
    }
    assertThat(held(counts)).isEqualTo(expected);
  }

  @Test
  void itsArraysAreChargedToTheSearchAsTheyGrowAndGivenBackOnce() {
    MemoryAccount search = new MemoryAccount("search", 64L << 20);
    BytesCounts counts =
        new BytesCounts(new SearchResources(search, () -> false, w -> {}).tracker("stats"));
    long empty = search.used();
    assertThat(empty)
        .as("the first arrays: a 1,024-entry index, 256 records, 16 KiB of arena")
        .isGreaterThan(24L << 10);
    byte[] key = new byte[100];
    for (int i = 0; i < 50_000; i++) {
      byte[] digits = Integer.toString(i).getBytes(StandardCharsets.US_ASCII);
      System.arraycopy(digits, 0, key, 0, digits.length);
      counts.add(key, 0, key.length, 1);
    }
    // the index grew to 131,072 entries of 4 bytes (512 KiB), the records to 65,536 of 32 bytes
    // (2 MiB), the arena to 8 MiB (5 MB of keys)
    long grown = (512L << 10) + (2L << 20) + (8L << 20);
    assertThat(search.used()).isGreaterThanOrEqualTo(grown);
    counts.clear();
    assertThat(search.used()).as("a clear keeps the arrays").isGreaterThanOrEqualTo(grown);
    counts.release();
    assertThat(search.used()).isZero();
    counts.release();
    assertThat(search.used()).as("released once").isZero();
  }

  @Test
  void overTheSearchsLimitTheTypedMemoryErrorNamingTheStage() {
    MemoryAccount search = new MemoryAccount("search", 1L << 20);
    BytesCounts counts =
        new BytesCounts(new SearchResources(search, () -> false, w -> {}).tracker("stats"));
    byte[] key = new byte[64];
    assertThatThrownBy(
            () -> {
              for (int i = 0; i < BytesCounts.MAX_KEYS; i++) {
                byte[] digits = Integer.toString(i).getBytes(StandardCharsets.US_ASCII);
                System.arraycopy(digits, 0, key, 0, digits.length);
                counts.add(key, 0, key.length, 1);
              }
            })
        .isInstanceOf(MemoryLimitExceededException.class)
        .hasMessageContaining("stats");
    assertThat(search.used()).isLessThanOrEqualTo(1L << 20);
    counts.release();
    assertThat(search.used()).isZero();
  }
}
