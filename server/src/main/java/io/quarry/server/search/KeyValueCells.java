package io.quarry.server.search;

import io.quarry.codecs.store.TextRegion;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.server.sourcetype.KeyPlaces;
import io.quarry.server.sourcetype.KeyValueBytes;

/**
 * One {@link EventColumn}'s cells found by automatic key=value extraction ({@code kvMode: auto},
 * read plain: {@link KeyValueBytes}) over an ASCII text's bytes: the values of its key copied into
 * the column's builder without a {@code String} (none: a null; two or more: a multivalue), a
 * block's texts answered from one pass over them where that pays ({@link RegionPlaces}).
 */
final class KeyValueCells implements KeyValueBytes.Values {
  private final byte[] key;
  private final RegionPlaces places; // the blocks answered from one pass each over their texts
  private int found; // the values the scan of the text found so far, each [start, end) in ranges
  private int[] ranges = new int[8];

  KeyValueCells(byte[] key) {
    this.key = key;
    this.places = new RegionPlaces(key);
  }

  /**
   * Appends to {@code texts} the key's values in {@code bytes[offset, offset + length)}, a text of
   * the block whose texts lie in {@code region} (null: none known); false (nothing appended) when
   * the text may be JSON (the full extraction decides then).
   */
  boolean append(
      BytesBlock.Builder texts, byte[] bytes, int offset, int length, TextRegion region) {
    if (mayBeJson(bytes, offset, length)) {
      return false;
    }
    appendNotJson(texts, bytes, offset, length, region);
    return true;
  }

  /** As {@link #append}, for a text already known not to be JSON-like ({@link #mayBeJson}). */
  void appendNotJson(
      BytesBlock.Builder texts, byte[] bytes, int offset, int length, TextRegion region) {
    found = 0;
    KeyPlaces keyPlaces = places.places(region, bytes, offset, length);
    if (keyPlaces != null) {
      keyPlaces.values(bytes, offset, length, this);
    } else {
      KeyValueBytes.values(bytes, offset, length, key, this);
    }
    if (found == 0) {
      texts.appendNull();
    } else if (found == 1) {
      texts.append(bytes, ranges[0], ranges[1] - ranges[0]);
    } else {
      texts.beginPositionEntry();
      for (int i = 0; i < 2 * found; i += 2) {
        texts.append(bytes, ranges[i], ranges[i + 1] - ranges[i]);
      }
      texts.endPositionEntry();
    }
  }

  /** A value the key=value scan found, kept as a range until the scan ends. */
  @Override
  public void value(int start, int end) {
    if (2 * found + 2 > ranges.length) {
      ranges = java.util.Arrays.copyOf(ranges, 2 * ranges.length);
    }
    ranges[2 * found] = start;
    ranges[2 * found + 1] = end;
    found++;
  }

  /**
   * Whether the text, without surrounding whitespace (as {@code String.strip} sees it), starts with
   * <code>{</code> and ends with <code>}</code>: then JSON extraction comes first and the full
   * extraction ({@link FieldExtractor}) decides.
   */
  static boolean mayBeJson(byte[] bytes, int offset, int length) {
    if (length > 0 && bytes[offset] > ' ' && bytes[offset] != '{') {
      // every ASCII character String.strip takes is at most ' ': the text starts here, and not
      // with '{' (an access-log line, one byte read, not its end's cache line too)
      return false;
    }
    int start = offset;
    int end = offset + length;
    while (start < end && Character.isWhitespace(bytes[start])) {
      start++;
    }
    while (end > start && Character.isWhitespace(bytes[end - 1])) {
      end--;
    }
    return end - start >= 2 && bytes[start] == '{' && bytes[end - 1] == '}';
  }
}
