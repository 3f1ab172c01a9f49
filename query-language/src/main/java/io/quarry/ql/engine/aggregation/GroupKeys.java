package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.ByteSlice;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.ql.exec.MemoryTracker;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Dense group ids for the by-fields' values, as the row engine groups: a key is each by-field's
 * value as text ({@link BlockValues#key}); a position with several values of a by-field falls in
 * one group per distinct value (per combination, with several by-fields); a position without a
 * value for some by-field falls in none. One by-field goes through a {@link BytesKeyHash} (a string
 * value's bytes looked up as they lie in its block); several through a map of key lists. Not
 * thread-safe.
 */
final class GroupKeys {
  private final int width;
  private final BytesKeyHash single;
  private final ByteSlice scratch = new ByteSlice();
  private final Map<List<String>, Integer> multi;
  private final List<List<String>> multiKeys;
  private int[] ids = new int[8];

  GroupKeys(int width) {
    this.width = width;
    this.single = width == 1 ? new BytesKeyHash() : null;
    this.multi = width > 1 ? new HashMap<>() : null;
    this.multiKeys = width > 1 ? new ArrayList<>() : null;
  }

  /** The number of groups; ids are {@code [0, size)}. */
  int size() {
    return width == 0 ? 1 : width == 1 ? single.size() : multiKeys.size();
  }

  /** Group {@code id}'s value of by-field {@code field}. */
  String key(int id, int field) {
    return width == 1 ? single.key(id) : multiKeys.get(id).get(field);
  }

  /** Appends group {@code id}'s value of by-field {@code field} to a string block. */
  void appendKey(int id, int field, BytesBlock.Builder into) {
    if (width == 1) {
      single.appendKey(id, into);
    } else {
      into.append(multiKeys.get(id).get(field));
    }
  }

  /** The estimated heap bytes group {@code id}'s key takes. */
  long keyBytes(int id) {
    if (width == 0) {
      return 0;
    }
    if (width == 1) {
      return BytesKeyHash.KEY_OVERHEAD_BYTES + single.length(id);
    }
    long bytes = MemoryTracker.ENTRY_BYTES;
    for (String value : multiKeys.get(id)) {
      bytes += MemoryTracker.valueBytes(value);
    }
    return bytes;
  }

  /** The id of a group of another instance's keys (made here when new). */
  int idOf(GroupKeys other, int otherId) {
    if (width == 0) {
      return 0;
    }
    if (width == 1) {
      return found(single.idOf(other.single, otherId));
    }
    return multiId(other.multiKeys.get(otherId));
  }

  private int multiId(List<String> key) {
    Integer id = multi.get(key);
    if (id == null) {
      id = multiKeys.size();
      multi.put(key, id);
      multiKeys.add(key);
    }
    return id;
  }

  /**
   * The groups of position {@code position}, given the by-fields' blocks (null for a field the page
   * lacks): their ids are {@link #ids()}{@code [0, n)}.
   *
   * @return n, 0 when the position falls in no group
   */
  int groupsOf(Block[] keys, int position) {
    if (width == 0) {
      ids[0] = 0;
      return 1;
    }
    if (width == 1) {
      Block block = keys[0];
      int count = block == null ? 0 : block.getValueCount(position);
      if (count == 1) {
        int value = block.getFirstValueIndex(position);
        if (block instanceof BytesBlock bytes) {
          bytes.getBytes(value, scratch);
          ids[0] = found(single.id(scratch.bytes(), scratch.offset(), scratch.length()));
        } else {
          ids[0] = singleId(BlockValues.key(block, value));
        }
        return 1;
      }
      if (count == 0) {
        return 0;
      }
      Set<String> distinct = distinctKeys(block, position);
      int n = 0;
      ensure(distinct.size());
      for (String key : distinct) {
        ids[n++] = singleId(key);
      }
      return n;
    }
    List<Set<String>> values = new ArrayList<>(width);
    for (Block block : keys) {
      if (block == null || block.getValueCount(position) == 0) {
        return 0;
      }
      values.add(distinctKeys(block, position));
    }
    List<List<String>> combinations = new ArrayList<>();
    combine(values, 0, new ArrayList<>(width), combinations);
    ensure(combinations.size());
    for (int i = 0; i < combinations.size(); i++) {
      ids[i] = multiId(combinations.get(i));
    }
    return combinations.size();
  }

  /**
   * Where every position of a page falls in exactly one group or none (no multivalued by-field
   * here): its group's id into {@code ids[position]}, -1 for none, and true; false (nothing
   * written) when some position may fall in several — then ask {@link #groupsOf} per position.
   */
  boolean groupOfEach(Block[] keys, int count, int[] ids) {
    if (width == 0) {
      java.util.Arrays.fill(ids, 0, count, 0);
      return true;
    }
    if (width > 1) {
      return false;
    }
    Block block = keys[0];
    if (block == null) {
      java.util.Arrays.fill(ids, 0, count, -1);
      return true;
    }
    if (block.mayHaveMultivaluedFields()) {
      return false;
    }
    if (block instanceof BytesBlock bytes) {
      single.ids(bytes, count, ids);
      return true;
    }
    for (int p = 0; p < count; p++) {
      ids[p] = block.isNull(p) ? -1 : singleId(BlockValues.key(block, p));
    }
    return true;
  }

  /** The ids {@link #groupsOf} found. */
  int[] ids() {
    return ids;
  }

  private int singleId(String key) {
    return found(single.id(key));
  }

  /** The id of a lookup's answer, whether the key was there or is new. */
  private static int found(int id) {
    return id >= 0 ? id : -id - 1;
  }

  private void ensure(int n) {
    if (n > ids.length) {
      ids = Arrays.copyOf(ids, Math.max(n, ids.length * 2));
    }
  }

  private static Set<String> distinctKeys(Block block, int position) {
    Set<String> distinct = new LinkedHashSet<>();
    int first = block.getFirstValueIndex(position);
    int end = first + block.getValueCount(position);
    for (int i = first; i < end; i++) {
      distinct.add(BlockValues.key(block, i));
    }
    return distinct;
  }

  private static void combine(
      List<Set<String>> values, int field, List<String> prefix, List<List<String>> into) {
    if (field == values.size()) {
      into.add(List.copyOf(prefix));
      return;
    }
    for (String value : values.get(field)) {
      prefix.add(value);
      combine(values, field + 1, prefix, into);
      prefix.remove(prefix.size() - 1);
    }
  }

  /** Forgets every group. */
  void clear() {
    if (single != null) {
      single.clear();
    }
    if (multi != null) {
      multi.clear();
      multiKeys.clear();
    }
  }
}
