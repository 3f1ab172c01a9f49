package io.quarry.ql.engine.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link BytesKeyHash} gives each distinct key one dense id, across growth, offsets and clears. */
class BytesKeyHashTest {

  @Test
  void oneDenseIdPerDistinctKey() {
    BytesKeyHash hash = new BytesKeyHash();
    Map<String, Integer> expected = new HashMap<>();
    Random random = new Random(3);
    for (int i = 0; i < 50_000; i++) {
      String key = "k" + random.nextInt(20_000) + (random.nextBoolean() ? "é" : "");
      // the key's bytes somewhere in the middle of a larger array, as in a block
      byte[] utf8 = ("..." + key + "..").getBytes(StandardCharsets.UTF_8);
      int length = key.getBytes(StandardCharsets.UTF_8).length;
      int id = hash.id(utf8, 3, length);
      Integer known = expected.get(key);
      if (known == null) {
        assertThat(id).as(key).isEqualTo(-expected.size() - 1);
        expected.put(key, expected.size());
      } else {
        assertThat(id).as(key).isEqualTo(known);
      }
    }
    assertThat(hash.size()).isEqualTo(expected.size());
    expected.forEach(
        (key, id) -> {
          assertThat(hash.key(id)).isEqualTo(key);
          assertThat(hash.id(key)).isEqualTo(id);
        });
    BytesKeyHash other = new BytesKeyHash();
    assertThat(other.idOf(hash, 5)).isEqualTo(-1);
    assertThat(other.key(0)).isEqualTo(hash.key(5));
    hash.clear();
    assertThat(hash.size()).isZero();
    assertThat(hash.id("k1")).isEqualTo(-1);
    assertThat(hash.id("")).isEqualTo(-2);
    assertThat(hash.key(1)).isEmpty();
  }

  /**
   * Keys held whole in their slot (up to 16 bytes) and longer ones sharing their first 16 bytes,
   * keys that differ only by trailing zero bytes, keys of exactly 8 and 16 bytes: one id each.
   */
  @Test
  void keysInTheSlotAndLongerOnesAreToldApart() {
    BytesKeyHash hash = new BytesKeyHash();
    Map<String, Integer> expected = new HashMap<>();
    Random random = new Random(9);
    String sixteen = "SD0SL0L6F2KUYZ12";
    for (int i = 0; i < 40_000; i++) {
      String key =
          switch (random.nextInt(6)) {
            case 0 -> sixteen.substring(0, random.nextInt(17));
            case 1 -> sixteen + random.nextInt(3_000);
            case 2 -> "a" + "\0".repeat(random.nextInt(20));
            case 3 -> sixteen.substring(0, 8) + random.nextInt(100);
            default -> "SD" + random.nextInt(10) + "SL" + random.nextInt(5_000);
          };
      byte[] utf8 = ("." + key).getBytes(StandardCharsets.UTF_8);
      int id = hash.id(utf8, 1, utf8.length - 1);
      Integer known = expected.get(key);
      if (known == null) {
        assertThat(id).as(key).isEqualTo(-expected.size() - 1);
        expected.put(key, expected.size());
      } else {
        assertThat(id).as(key).isEqualTo(known);
      }
    }
    expected.forEach(
        (key, id) -> {
          assertThat(hash.key(id)).isEqualTo(key);
          byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
          assertThat(hash.find(utf8, 0, utf8.length)).isEqualTo(id);
        });
    assertThat(hash.find(new byte[] {'z'}, 0, 1)).isEqualTo(-1);
  }

  /**
   * A key's last bytes are read in one load where its array holds eight more bytes and byte by byte
   * at the array's end: a key followed by other bytes (as in a block) and the same key ending its
   * array find one id, for every length around the words' edges.
   */
  @Test
  void aKeyIsTheSameWhateverFollowsItInItsArray() {
    BytesKeyHash hash = new BytesKeyHash();
    Map<String, Integer> expected = new HashMap<>();
    Random random = new Random(5);
    for (int i = 0; i < 20_000; i++) {
      byte[] key = new byte[random.nextInt(25)];
      for (int b = 0; b < key.length; b++) {
        key[b] =
            (byte)
                "ab\0\u00ff"
                    .charAt(random.nextInt(4)); // few distinct bytes: many repeats and near misses
      }
      byte[] followed = new byte[3 + key.length + 16];
      random.nextBytes(followed); // whatever lies around the key
      System.arraycopy(key, 0, followed, 3, key.length);
      byte[] alone = key.clone();
      String name = java.util.HexFormat.of().formatHex(key);
      int id =
          random.nextBoolean() ? hash.id(followed, 3, key.length) : hash.id(alone, 0, key.length);
      Integer known = expected.get(name);
      if (known == null) {
        assertThat(id).as(name).isEqualTo(-expected.size() - 1);
        expected.put(name, expected.size());
      } else {
        assertThat(id).as(name).isEqualTo(known);
      }
      assertThat(hash.find(followed, 3, key.length)).as(name).isEqualTo(expected.get(name));
      assertThat(hash.find(alone, 0, key.length)).as(name).isEqualTo(expected.get(name));
    }
    assertThat(hash.size()).isEqualTo(expected.size());
  }

  /**
   * Keys of every size from empty to longer than a pool page (64 KiB), 100,000 of them so the table
   * and the pool run over many pages: each keeps its id, its bytes and its text, also when another
   * hash merges them in.
   */
  @Test
  void keysAcrossManyPagesAndLongerThanAPageKeepTheirIds() {
    BytesKeyHash hash = new BytesKeyHash();
    Random random = new Random(13);
    java.util.List<byte[]> keys = new java.util.ArrayList<>();
    Map<String, Integer> expected = new HashMap<>();
    for (int i = 0; i < 100_000; i++) {
      int length =
          switch (random.nextInt(1_000)) {
            case 0 -> 0;
            case 1 -> 65_536 + random.nextInt(100);
            default -> 1 + random.nextInt(40);
          };
      byte[] key = new byte[length];
      for (int b = 0; b < length; b++) {
        key[b] = (byte) ('a' + random.nextInt(26));
      }
      String text = new String(key, StandardCharsets.US_ASCII);
      int id = hash.id(key, 0, length);
      Integer known = expected.get(text);
      if (known == null) {
        assertThat(id).isEqualTo(-expected.size() - 1);
        expected.put(text, expected.size());
        keys.add(key);
      } else {
        assertThat(id).isEqualTo(known);
      }
    }
    io.quarry.plugin.api.data.ByteSlice slice = new io.quarry.plugin.api.data.ByteSlice();
    for (int id = 0; id < keys.size(); id++) {
      hash.bytes(id, slice);
      assertThat(hash.length(id)).isEqualTo(keys.get(id).length);
      assertThat(
              java.util.Arrays.copyOfRange(
                  slice.bytes(), slice.offset(), slice.offset() + slice.length()))
          .isEqualTo(keys.get(id));
      assertThat(hash.find(keys.get(id), 0, keys.get(id).length)).isEqualTo(id);
    }
    BytesKeyHash merged = new BytesKeyHash();
    merged.id("before".getBytes(StandardCharsets.US_ASCII), 0, 6);
    int[] ids = new int[1_000];
    for (int from = 0; from < keys.size(); from += ids.length) {
      int count = Math.min(ids.length, keys.size() - from);
      merged.idsOf(hash, from, count, ids);
      for (int i = 0; i < count; i++) {
        assertThat(merged.key(ids[i])).isEqualTo(hash.key(from + i));
      }
    }
    assertThat(merged.size()).isEqualTo(keys.size() + (expected.containsKey("before") ? 0 : 1));
  }

  /**
   * The table doubles in place: after every doubling of 300 tables (a third of them grown again
   * after a clear) each key already added is still found under its id — entries moved to the new
   * upper half, nearer their home, or held by the run of entries at the table's start, which may
   * have wrapped there from its end.
   */
  @Test
  void everyKeyIsFoundAfterEachDoubling() {
    Random random = new Random(17);
    for (int table = 0; table < 300; table++) {
      BytesKeyHash hash = new BytesKeyHash();
      int rounds = table % 3 == 0 ? 2 : 1;
      for (int round = 0; round < rounds; round++) {
        hash.clear();
        java.util.List<byte[]> keys = new java.util.ArrayList<>();
        int count = 1 + random.nextInt(3_000);
        for (int i = 0; i < count; i++) {
          byte[] key = ("k" + table + "-" + round + "-" + i).getBytes(StandardCharsets.US_ASCII);
          assertThat(hash.id(key, 0, key.length)).isEqualTo(-i - 1);
          keys.add(key);
          if (Integer.bitCount(i + 1) == 1) { // around each doubling
            for (int id = 0; id <= i; id++) {
              byte[] known = keys.get(id);
              assertThat(hash.find(known, 0, known.length)).isEqualTo(id);
            }
          }
        }
        for (int id = 0; id < keys.size(); id++) {
          byte[] known = keys.get(id);
          assertThat(hash.id(known, 0, known.length)).isEqualTo(id);
        }
        assertThat(hash.size()).isEqualTo(count);
      }
    }
  }

  /**
   * Keys appended without hashing ({@link BytesKeyHash#appendDistinct}: a dictionary's entries
   * handed to an empty aggregation) take the next ids in the order given, read back as they are,
   * and are found by every lookup afterwards — after keys looked up before them, across the table's
   * growth — with new keys numbered after them; nothing is looked up twice into two ids.
   */
  @Test
  void appendedKeysAreFoundByTheLookupsAfter() {
    Random random = new Random(31);
    for (int round = 0; round < 20; round++) {
      BytesKeyHash hash = new BytesKeyHash();
      Map<String, Integer> expected = new HashMap<>();
      int before = round % 2 == 0 ? 0 : random.nextInt(3_000);
      for (int i = 0; i < before; i++) {
        String key = "early" + i;
        assertThat(hash.id(key)).isEqualTo(-expected.size() - 1);
        expected.put(key, expected.size());
      }
      int entries = 1 + random.nextInt(round < 5 ? 50 : 40_000);
      io.quarry.plugin.api.data.BytesBlock.Builder builder =
          io.quarry.plugin.api.data.BytesBlock.builder(entries);
      for (int e = 0; e < entries; e++) {
        builder.append(("entry-%0" + (1 + e % 30) + "d").formatted(e));
      }
      io.quarry.plugin.api.data.BytesBlock dictionary = builder.build();
      int[] met = new int[entries];
      for (int e = 0; e < entries; e++) {
        met[e] = entries - 1 - e;
      }
      int from = random.nextInt(entries);
      hash.appendDistinct(dictionary, met, from, entries - from);
      for (int i = from; i < entries; i++) {
        String key = dictionary.getString(met[i]);
        assertThat(hash.key(expected.size())).isEqualTo(key);
        expected.put(key, expected.size());
      }
      assertThat(hash.size()).isEqualTo(expected.size());
      for (int i = 0; i < 500; i++) {
        String key = "late" + random.nextInt(300);
        int id = hash.id(key);
        if (expected.containsKey(key)) {
          assertThat(id).isEqualTo(expected.get(key));
        } else {
          assertThat(id).isEqualTo(-expected.size() - 1);
          expected.put(key, expected.size());
        }
      }
      expected.forEach((key, id) -> assertThat(hash.id(key)).as(key).isEqualTo(id));
      assertThat(hash.size()).isEqualTo(expected.size());
      hash.clear();
      assertThat(hash.id("entry-0")).isEqualTo(-1);
    }
  }

  @Test
  void aReservedTableIsTheOneTheInsertsGrowToAndDoesNotGrowAgain() {
    int keys = 200_001;
    BytesKeyHash grown = new BytesKeyHash();
    for (int k = 0; k < keys; k++) {
      byte[] key = ("s-" + k).getBytes(StandardCharsets.UTF_8);
      grown.id(key, 0, key.length);
    }
    BytesKeyHash reserved = new BytesKeyHash();
    reserved.reserve(keys);
    int slots = reserved.slots();
    assertThat(slots).isEqualTo(grown.slots());
    for (int k = 0; k < keys; k++) {
      byte[] key = ("s-" + k).getBytes(StandardCharsets.UTF_8);
      assertThat(reserved.id(key, 0, key.length)).isEqualTo(-k - 1);
      assertThat(reserved.slots()).as("after key %d", k).isEqualTo(slots);
    }
    reserved.reserve(keys / 2); // fewer than it holds: nothing
    assertThat(reserved.slots()).isEqualTo(slots);
    for (int k = 0; k < keys; k++) {
      byte[] key = ("s-" + k).getBytes(StandardCharsets.UTF_8);
      assertThat(reserved.find(key, 0, key.length)).isEqualTo(k);
    }
  }

  @Test
  void aTableHoldingKeysReservedForMoreKeepsFindingThem() {
    BytesKeyHash hash = new BytesKeyHash();
    for (int k = 0; k < 1_000; k++) {
      byte[] key = ("k" + k).getBytes(StandardCharsets.UTF_8);
      hash.id(key, 0, key.length);
    }
    int before = hash.slots();
    hash.reserve(100_000); // doubled in place, every key placed again
    assertThat(hash.slots()).isGreaterThan(before);
    for (int k = 0; k < 1_000; k++) {
      byte[] key = ("k" + k).getBytes(StandardCharsets.UTF_8);
      assertThat(hash.find(key, 0, key.length)).isEqualTo(k);
    }
    for (int k = 1_000; k < 100_000; k++) {
      byte[] key = ("k" + k).getBytes(StandardCharsets.UTF_8);
      int slots = hash.slots();
      assertThat(hash.id(key, 0, key.length)).isEqualTo(-k - 1);
      assertThat(hash.slots()).isEqualTo(slots);
    }
  }
}
