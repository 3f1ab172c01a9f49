package io.quarry.ql.eval;

import io.quarry.plugin.api.data.BytesBlock;
import java.nio.charset.StandardCharsets;

/**
 * A column of few distinct values: an entry id per position into {@code entries} (what a function
 * answered once per dictionary entry of its argument: {@link BoundCallEvaluator}), the positions
 * with no entry (id -1: a null, a multivalue) read from {@code others}. Written to a field as a
 * string block in dictionary form when every value is a single text ({@link #bytesBlock}), so the
 * answer stays as few bytes as its argument's dictionary.
 */
final class DictionaryColumn implements ValueColumn {
  private final ValueColumn entries;
  private final int[] ids;
  private final ValueColumn others;

  /** Position {@code p}'s value is {@code entries}' at {@code ids[p]}, or {@code others}' at p. */
  DictionaryColumn(ValueColumn entries, int[] ids, ValueColumn others) {
    this.entries = entries;
    this.ids = ids;
    this.others = others;
  }

  /** The distinct values. */
  ValueColumn entries() {
    return entries;
  }

  /** Each position's entry, or -1 (read from {@link #others}). */
  int[] ids() {
    return ids;
  }

  /** The values of the positions without an entry (any other position is not read). */
  ValueColumn others() {
    return others;
  }

  @Override
  public int size() {
    return ids.length;
  }

  @Override
  public byte kind(int position) {
    int id = ids[position];
    return id >= 0 ? entries.kind(id) : others.kind(position);
  }

  @Override
  public long getLong(int position) {
    int id = ids[position];
    return id >= 0 ? entries.getLong(id) : others.getLong(position);
  }

  @Override
  public double getDouble(int position) {
    int id = ids[position];
    return id >= 0 ? entries.getDouble(id) : others.getDouble(position);
  }

  @Override
  public boolean getBoolean(int position) {
    int id = ids[position];
    return id >= 0 ? entries.getBoolean(id) : others.getBoolean(position);
  }

  @Override
  public String getText(int position) {
    int id = ids[position];
    return id >= 0 ? entries.getText(id) : others.getText(position);
  }

  @Override
  public Object get(int position) {
    int id = ids[position];
    return id >= 0 ? entries.get(id) : others.get(position);
  }

  /**
   * This column as a string block in dictionary form (each text used written once), or null when
   * some position holds anything but a single text or a null, or none holds a text.
   */
  BytesBlock bytesBlock() {
    int size = ids.length;
    int[] ordinals = new int[entries.size()];
    java.util.Arrays.fill(ordinals, -1);
    int[] positions = new int[size]; // each position's ordinal, -1 for a null
    BytesBlock.Builder dictionary = BytesBlock.builder(Math.min(entries.size(), size) + 1);
    int count = 0;
    for (int p = 0; p < size; p++) {
      int id = ids[p];
      byte kind = kind(p);
      if (kind == NULL) {
        positions[p] = -1;
      } else if (kind != TEXT) {
        return null;
      } else if (id < 0) {
        dictionary.append(others.getText(p).getBytes(StandardCharsets.UTF_8));
        positions[p] = count++;
      } else {
        if (ordinals[id] < 0) {
          dictionary.append(entries.getText(id).getBytes(StandardCharsets.UTF_8));
          ordinals[id] = count++;
        }
        positions[p] = ordinals[id];
      }
    }
    if (count == 0) {
      return null;
    }
    BytesBlock.OrdinalBuilder builder = BytesBlock.ordinalBuilder(dictionary.build(), size);
    for (int p = 0; p < size; p++) {
      if (positions[p] < 0) {
        builder.appendNull();
      } else {
        builder.appendOrdinal(positions[p]);
      }
    }
    return builder.build();
  }
}
