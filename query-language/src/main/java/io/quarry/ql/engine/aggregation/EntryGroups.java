package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/**
 * The groups of a page's positions when every by-field's block is a string block in dictionary or
 * constant form, single-valued: a position's group is its combination of dictionary entries, so
 * each combination a page meets is looked up once (on first use, so groups are made in the order
 * the positions meet them, as for plain blocks) and every other position takes its combination's id
 * — {@code stats count by method, status} over index-time columns looks up a handful of keys per
 * page, not one per event. Combinations are numbered densely (entry of the first field times the
 * second's entries, plus …), so several by-fields take this way only while the page has few
 * combinations. The ids are kept from page to page while every by-field's dictionary is the very
 * same block as the last page's (the per-slice dictionaries a scan shares across its pages, {@code
 * server.search.OrdinalColumn}): a group's id never changes until {@link #forget}, so a page then
 * starts with its combinations already numbered — neither the reset of the ids nor a lookup per
 * combination per page. Not thread-safe; one per {@link GroupKeys}.
 */
final class EntryGroups {
  /** The most combinations of several by-fields' entries numbered per page (one int each). */
  private static final int MOST_COMBINATIONS = 1 << 14;

  private int[] ids = new int[8]; // a combination's group id, -1: not met yet
  private Block[] dictionaries = new Block[0]; // the dictionaries ids number combinations of

  /**
   * The group of each position {@code [0, count)} into {@code into} (-1 for a position without a
   * value of some by-field), {@code idOfPosition} asked for the first position of each combination;
   * false (nothing written) when some block is plain or there are too many combinations.
   */
  boolean groupOfEach(Block[] keys, int count, int[] into, IntUnaryOperator idOfPosition) {
    long combinations = 1;
    for (Block key : keys) {
      if (!(key instanceof BytesBlock bytes) || bytes.dictionary() == null) {
        return false;
      }
      combinations *= bytes.dictionary().positionCount();
      if (keys.length > 1 && combinations > MOST_COMBINATIONS) {
        return false;
      }
    }
    if (!sameDictionaries(keys)) {
      int size = (int) combinations;
      if (ids.length < size) {
        ids = new int[Math.max(size, ids.length * 2)];
      }
      Arrays.fill(ids, 0, size, -1);
    }
    positions:
    for (int p = 0; p < count; p++) {
      int combination = 0;
      for (Block key : keys) {
        BytesBlock bytes = (BytesBlock) key;
        if (bytes.isNull(p)) {
          into[p] = -1;
          continue positions;
        }
        combination = combination * bytes.dictionary().positionCount() + bytes.getOrdinal(p);
      }
      int id = ids[combination];
      if (id < 0) {
        id = idOfPosition.applyAsInt(p);
        ids[combination] = id;
      }
      into[p] = id;
    }
    return true;
  }

  /**
   * Whether every key's dictionary is the one the ids were numbered for (the same object: its
   * entries at the same ordinals); if not, remembers the keys' dictionaries for the ids about to be
   * numbered afresh.
   */
  private boolean sameDictionaries(Block[] keys) {
    boolean same = dictionaries.length == keys.length;
    for (int k = 0; same && k < keys.length; k++) {
      same = dictionaries[k] == ((BytesBlock) keys[k]).dictionary();
    }
    if (!same) {
      dictionaries = new Block[keys.length];
      for (int k = 0; k < keys.length; k++) {
        dictionaries[k] = ((BytesBlock) keys[k]).dictionary();
      }
    }
    return same;
  }

  /** Forgets the ids: the groups they name are gone. */
  void forget() {
    dictionaries = new Block[0];
  }
}
