package io.quarry.ql.engine;

import io.quarry.plugin.api.data.BytesBlock;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Builds a string block in dictionary form from one value per position: each distinct value is
 * written once, into the block's dictionary, and each position keeps an ordinal. For a column of
 * few distinct values ({@code host}, {@code source}, {@code sourcetype}, {@code index}: one or a
 * handful per page) that is a page of ints instead of a copy of each value, and {@code stats … by}
 * such a column looks up each distinct value once per page ({@code GroupKeys}). The values the scan
 * hands in for such a column are the same {@code String} instance per distinct value (the segment's
 * decoded terms), so the last value is matched by identity before the map is asked. Not
 * thread-safe.
 */
public final class DictionaryBlockBuilder {
  private final Map<String, Integer> entries = new HashMap<>();
  private BytesBlock.Builder dictionary;
  private int[] ordinals;
  private int size;
  private String last;
  private int lastOrdinal = -1;

  public DictionaryBlockBuilder(int expectedSize) {
    reset(expectedSize);
  }

  private void reset(int expectedSize) {
    entries.clear();
    dictionary = BytesBlock.builder(4);
    ordinals = new int[Math.max(expectedSize, 8)];
    size = 0;
    last = null;
    lastOrdinal = -1;
  }

  /** Appends a position holding {@code value}, or a null position for null. */
  public void append(String value) {
    int ordinal;
    if (value == null) {
      ordinal = -1;
    } else if (value == last) {
      ordinal = lastOrdinal;
    } else {
      Integer known = entries.get(value);
      if (known == null) {
        known = entries.size();
        entries.put(value, known);
        dictionary.append(value);
      }
      ordinal = known;
      last = value;
      lastOrdinal = ordinal;
    }
    if (size == ordinals.length) {
      ordinals = Arrays.copyOf(ordinals, size * 2);
    }
    ordinals[size++] = ordinal;
  }

  /** The positions appended since the last build. */
  public int positionCount() {
    return size;
  }

  /**
   * The block of the positions appended (a constant block when every one holds the same value), and
   * this builder empty again for a page of about {@code nextSize} positions.
   */
  public BytesBlock build(int nextSize) {
    BytesBlock block;
    BytesBlock built = dictionary.build();
    if (built.positionCount() == 1 && noNulls()) {
      block = BytesBlock.constant(built.getStringValue(0), size);
    } else {
      BytesBlock.OrdinalBuilder builder = BytesBlock.ordinalBuilder(built, size);
      for (int i = 0; i < size; i++) {
        if (ordinals[i] < 0) {
          builder.appendNull();
        } else {
          builder.appendOrdinal(ordinals[i]);
        }
      }
      block = builder.build();
    }
    reset(nextSize);
    return block;
  }

  private boolean noNulls() {
    for (int i = 0; i < size; i++) {
      if (ordinals[i] < 0) {
        return false;
      }
    }
    return true;
  }
}
