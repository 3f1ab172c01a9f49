package io.quarry.ql.engine.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * {@link KeyMerge} gives every key of the hash merged from its id in the hash merged into,
 * partition by partition on a pool: the same keys and dense ids a merge key by key makes, also for
 * keys whose hashes and first 16 bytes are equal (told apart by their bytes in a pool, the one
 * being added included).
 */
class KeyMergeTest {
  private static final ExecutorService POOL = Executors.newFixedThreadPool(3);
  private static final String PREFIX = "JSESSIONID=SD0SL"; // 16 bytes every key starts with

  @AfterAll
  static void shutdown() {
    POOL.shutdownNow();
  }

  /** Two keys of 22 bytes, both starting with {@link #PREFIX}, whose hashes are equal. */
  private static List<String> collidingPair() {
    Map<Integer, String> seen = new HashMap<>();
    for (int i = 0; ; i++) {
      String key = PREFIX + String.format("%06d", i);
      byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
      String before = seen.putIfAbsent(BytesKeyHash.hash(bytes, 0, bytes.length), key);
      if (before != null) {
        return List.of(before, key);
      }
    }
  }

  private static BytesKeyHash hashOf(Iterable<String> keys) {
    BytesKeyHash hash = new BytesKeyHash();
    for (String key : keys) {
      hash.id(key);
    }
    return hash;
  }

  /** Merges {@code theirs} into {@code ours} with the pool and checks every id both ways. */
  private static void mergesAsKeyByKey(List<String> ours, List<String> theirs) {
    BytesKeyHash into = hashOf(ours);
    BytesKeyHash from = hashOf(theirs);
    int[] ids = new int[from.size()];
    KeyMerge.run(into, from, ids, POOL, 3, SharedTasks.NEVER);

    Set<String> union = new LinkedHashSet<>(ours);
    union.addAll(theirs);
    assertThat(into.size()).isEqualTo(union.size());
    for (int j = 0; j < from.size(); j++) {
      assertThat(into.key(ids[j])).isEqualTo(from.key(j));
    }
    Set<String> keys = new LinkedHashSet<>();
    for (int id = 0; id < into.size(); id++) {
      String key = into.key(id);
      keys.add(key);
      byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
      assertThat(into.find(bytes, 0, bytes.length)).as(key).isEqualTo(id);
    }
    assertThat(keys).isEqualTo(union);
    for (int id = 0; id < ours.size(); id++) {
      assertThat(into.key(id)).isEqualTo(ours.get(id)); // the keys there keep their ids
    }
    // and the merged hash goes on: a new key after the merge, an old one found again
    assertThat(into.id("after the merge")).isEqualTo(-union.size() - 1);
    assertThat(into.id(theirs.get(0))).isEqualTo(ids[0]);
  }

  private static List<String> keys(String tag, int count) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      keys.add(PREFIX + tag + i);
    }
    return keys;
  }

  @Test
  void bothKeysOfAnEqualHashAddedInOneMerge() {
    List<String> pair = collidingPair();
    List<String> theirs = new ArrayList<>(keys("b", 20_000));
    theirs.addAll(pair);
    mergesAsKeyByKey(keys("a", 10_000), theirs);
  }

  @Test
  void aKeyOfAnEqualHashAlreadyThere() {
    List<String> pair = collidingPair();
    List<String> ours = new ArrayList<>(keys("a", 10_000));
    ours.add(pair.get(0));
    List<String> theirs = new ArrayList<>(keys("b", 9_000));
    theirs.addAll(keys("a", 5_000)); // half of ours again
    theirs.add(pair.get(1));
    mergesAsKeyByKey(ours, theirs);
  }

  @Test
  void shortKeysIntoAHashNotYetSplit() {
    List<String> ours = new ArrayList<>();
    List<String> theirs = new ArrayList<>();
    for (int i = 0; i < 30_000; i++) {
      (i % 3 == 0 ? ours : theirs).add(Integer.toString(i, 36));
      if (i % 5 == 0) {
        theirs.add(Integer.toString(i, 36) + "x");
      }
    }
    ours = ours.subList(0, 1_000); // fewer than a split takes: split by the merge
    mergesAsKeyByKey(ours, theirs);
  }
}
