package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.ByteSlice;
import io.quarry.plugin.api.data.BytesBlock;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Dense group ids for the by-fields' values: a key is each by-field's value as text ({@link
 * BlockValues#key}); a position with several values of a by-field falls in one group per distinct
 * value (per combination, with several by-fields); a position without a value for some by-field
 * falls in none. Keys live in a {@link BytesKeyHash}: with one by-field a string value's bytes are
 * looked up as they lie in its block; with several, the values' texts are written one after
 * another, each behind its length, into one composite key ({@link CompositeKey}: no list or string
 * per row: a whole-number or timestamp value is written as its decimal digits straight from the
 * block), and a group's value of one by-field is read back from its key when the answer is built.
 * Not thread-safe.
 */
final class GroupKeys {
  private final int width;
  private final BytesKeyHash hash;
  private final ByteSlice scratch = new ByteSlice();
  private final CompositeKey composite = new CompositeKey(); // the composite key being built
  private int[] ids = new int[8];
  private final EntryGroups entryGroups = new EntryGroups(); // over dictionary blocks

  GroupKeys(int width) {
    this.width = width;
    this.hash = width >= 1 ? new BytesKeyHash() : null;
  }

  /**
   * Grows the key hash once to hold {@code groups} groups in all, before about that many are added
   * ({@link BytesKeyHash#reserve}); nothing without by-fields.
   */
  void reserve(int groups) {
    if (hash != null) {
      hash.reserve(groups);
    }
  }

  /** The number of groups; ids are {@code [0, size)}. */
  int size() {
    return width == 0 ? 1 : hash.size();
  }

  /**
   * The groups whose keys were never hashed: added from a dictionary's entries ({@link
   * #appendEntries}) with no lookup since ({@link BytesKeyHash#unindexed}).
   */
  int unhashed() {
    return hash == null ? 0 : hash.unindexed();
  }

  /** Whether there are by-fields and no group yet. */
  boolean isEmpty() {
    return width > 0 && hash.size() == 0;
  }

  /** Group {@code id}'s value of by-field {@code field}. */
  String key(int id, int field) {
    if (width == 1) {
      return hash.key(id);
    }
    int start = segment(id, field);
    return new String(
        scratch.bytes(),
        start + Integer.BYTES,
        CompositeKey.lengthAt(scratch.bytes(), start),
        StandardCharsets.UTF_8);
  }

  /** Group {@code id}'s value of by-field {@code field} as its UTF-8 bytes, where they lie. */
  void keySlice(int id, int field, ByteSlice into) {
    hash.bytes(id, into);
    if (width > 1) {
      byte[] bytes = into.bytes();
      int at = into.offset();
      for (int f = 0; f < field; f++) {
        at += Integer.BYTES + CompositeKey.lengthAt(bytes, at);
      }
      into.reset(bytes, at + Integer.BYTES, CompositeKey.lengthAt(bytes, at));
    }
  }

  /**
   * Appends group {@code id}'s value of by-field {@code field} to a string block. Only reads: may
   * run on several threads at once while no key is added (the answer's pages).
   */
  void appendKey(int id, int field, BytesBlock.Builder into) {
    if (width == 1) {
      hash.appendKey(id, into);
    } else {
      ByteSlice slice = new ByteSlice();
      keySlice(id, field, slice);
      into.append(slice.bytes(), slice.offset(), slice.length());
    }
  }

  /**
   * Group {@code id}'s value of by-field {@code field}, a new string each time: unlike {@link
   * #key}, only reads, so it may run on several threads at once while no key is added.
   */
  String keyText(int id, int field) {
    ByteSlice slice = new ByteSlice();
    keySlice(id, field, slice);
    return new String(slice.bytes(), slice.offset(), slice.length(), StandardCharsets.UTF_8);
  }

  /** Where by-field {@code field}'s length and text start in group {@code id}'s composite key. */
  private int segment(int id, int field) {
    hash.bytes(id, scratch);
    byte[] bytes = scratch.bytes();
    int at = scratch.offset();
    for (int f = 0; f < field; f++) {
      at += Integer.BYTES + CompositeKey.lengthAt(bytes, at);
    }
    return at;
  }

  /** The estimated heap bytes group {@code id}'s key takes. */
  long keyBytes(int id) {
    return width == 0 ? 0 : BytesKeyHash.KEY_OVERHEAD_BYTES + hash.length(id);
  }

  /** The id of a group of another instance's keys (made here when new). */
  int idOf(GroupKeys other, int otherId) {
    return width == 0 ? 0 : found(hash.idOf(other.hash, otherId));
  }

  /**
   * The ids of another instance's groups {@code [from, from + count)} into {@code ids[0, count)}
   * (made here when new), looked up together (see {@link BytesKeyHash#idsOf}).
   */
  void idsOf(GroupKeys other, int from, int count, int[] ids) {
    if (width == 0) {
      Arrays.fill(ids, 0, count, 0);
    } else {
      hash.idsOf(other.hash, from, count, ids);
    }
  }

  /**
   * The ids of the one by-field's values that are entries {@code entries[from, from + count)} of
   * {@code dictionary} into {@code ids[0, count)} (made here when new), looked up together ({@link
   * BytesKeyHash#entryIds}; {@link EntryPartial}).
   */
  void entryIds(BytesBlock dictionary, int[] entries, int from, int count, int[] ids) {
    if (width != 1) {
      throw new IllegalStateException("entries of one dictionary group by one field, not " + width);
    }
    hash.entryIds(dictionary, entries, from, count, ids);
  }

  /**
   * Adds the one by-field's values that are entries {@code entries[from, from + count)} of {@code
   * dictionary} — distinct, none here yet — as groups {@code size() …} in that order, not hashed
   * until a lookup asks ({@link BytesKeyHash#appendDistinct}; {@link EntryPartial}).
   */
  void appendEntries(BytesBlock dictionary, int[] entries, int from, int count) {
    if (width != 1) {
      throw new IllegalStateException("entries of one dictionary group by one field, not " + width);
    }
    hash.appendDistinct(dictionary, entries, from, count);
  }

  /**
   * Remembers the groups' likely answer order (every id once: their entries' order in a dictionary
   * that is probably sorted) for {@link GroupOrder} to check instead of sorting, until a group is
   * added ({@link BytesKeyHash#likelyOrder(int[])}).
   */
  void likelyOrder(int[] ids) {
    hash.likelyOrder(ids);
  }

  /** The order given to {@link #likelyOrder(int[])}, or null (a group added since, or none). */
  int[] likelyOrder() {
    return width == 1 ? hash.likelyOrder() : null;
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
          ids[0] = found(hash.id(scratch.bytes(), scratch.offset(), scratch.length()));
        } else {
          ids[0] = textId(BlockValues.key(block, value));
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
        ids[n++] = textId(key);
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
      composite.reset();
      for (String value : combinations.get(i)) {
        composite.appendText(value);
      }
      ids[i] = found(hash.id(composite.bytes(), 0, composite.length()));
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
      Arrays.fill(ids, 0, count, 0);
      return true;
    }
    for (Block block : keys) {
      if (block == null) {
        Arrays.fill(ids, 0, count, -1);
        return true;
      }
      if (block.mayHaveMultivaluedFields()) {
        return false;
      }
    }
    if (width == 1) {
      Block block = keys[0];
      if (block instanceof BytesBlock bytes) {
        if (!entryGroups.groupOfEach(keys, count, ids, p -> bytesId(bytes, p))) {
          hash.ids(bytes, count, ids);
        }
        return true;
      }
      for (int p = 0; p < count; p++) {
        ids[p] = block.isNull(p) ? -1 : textId(BlockValues.key(block, p));
      }
      return true;
    }
    if (entryGroups.groupOfEach(keys, count, ids, p -> compositeId(keys, p))) {
      return true;
    }
    positions:
    for (int p = 0; p < count; p++) {
      for (Block block : keys) {
        if (block.isNull(p)) {
          ids[p] = -1;
          continue positions;
        }
      }
      ids[p] = compositeId(keys, p);
    }
    return true;
  }

  /** The group of a single-valued string block's position (made here when new). */
  private int bytesId(BytesBlock block, int position) {
    block.getBytes(position, scratch);
    return found(hash.id(scratch.bytes(), scratch.offset(), scratch.length()));
  }

  /** The group of the by-fields' values at a position where each has one (made here when new). */
  private int compositeId(Block[] keys, int position) {
    composite.reset();
    for (Block block : keys) {
      composite.appendValue(block, position, scratch);
    }
    return found(hash.id(composite.bytes(), 0, composite.length()));
  }

  /** The id of the group of the by-fields' values {@code key} (texts; made here when new). */
  int idOf(List<String> key) {
    if (width == 0) {
      return 0;
    }
    if (width == 1) {
      return textId(key.get(0));
    }
    composite.reset();
    for (String text : key) {
      composite.appendText(text);
    }
    return found(hash.id(composite.bytes(), 0, composite.length()));
  }

  /** The ids {@link #groupsOf} found. */
  int[] ids() {
    return ids;
  }

  private int textId(String key) {
    return found(hash.id(key));
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
    entryGroups.forget();
    if (hash != null) {
      hash.clear();
    }
  }
}
