package io.quarry.plugin.api.data;

import java.util.Arrays;

/**
 * Where the positions of a block under construction start among its values: a builder's record of
 * position entries ({@code beginPositionEntry()} … {@code endPositionEntry()}). Until a position
 * has several values nothing is kept, since value index and position are the same; the first
 * multivalue position starts an array of first-value indexes (shared by the four builders).
 */
final class Positions {
  private int[] firstValueIndexes; // null while every position has one value slot
  private int positionCount;
  private int entryStart = -1; // where the open entry's values start; -1: no entry is open

  int positionCount() {
    return positionCount;
  }

  /** Whether a position entry is open (appended values join it). */
  boolean entryOpen() {
    return entryStart >= 0;
  }

  /** Records a position of one value slot at {@code valueIndex} (a value, or a null's slot). */
  void single(int valueIndex) {
    if (firstValueIndexes != null) {
      record(valueIndex);
    }
    positionCount++;
  }

  void begin(int valueCount) {
    if (entryStart >= 0) {
      throw new IllegalStateException("a position entry is already open");
    }
    entryStart = valueCount;
  }

  /**
   * Closes the open entry whose values end at {@code valueCount}.
   *
   * @return how many values it holds; for 0 nothing is recorded and the builder appends a null
   */
  int end(int valueCount) {
    if (entryStart < 0) {
      throw new IllegalStateException("no position entry is open");
    }
    int start = entryStart;
    entryStart = -1;
    int count = valueCount - start;
    if (count == 0) {
      return 0;
    }
    if (count > 1 && firstValueIndexes == null) {
      // every earlier position had one value slot: position p starts at value p
      firstValueIndexes = new int[Math.max(16, positionCount * 2 + 2)];
      for (int p = 0; p < positionCount; p++) {
        firstValueIndexes[p] = p;
      }
    }
    if (firstValueIndexes != null) {
      record(start);
    }
    positionCount++;
    return count;
  }

  private void record(int valueIndex) {
    if (positionCount + 1 >= firstValueIndexes.length) {
      firstValueIndexes = Arrays.copyOf(firstValueIndexes, firstValueIndexes.length * 2);
    }
    firstValueIndexes[positionCount] = valueIndex;
  }

  /**
   * The first value index of every position followed by {@code valueCount}, or null when no
   * position has several values.
   */
  int[] build(int valueCount) {
    if (entryStart >= 0) {
      throw new IllegalStateException("a position entry is still open");
    }
    if (firstValueIndexes == null) {
      return null;
    }
    int[] built = Arrays.copyOf(firstValueIndexes, positionCount + 1);
    built[positionCount] = valueCount;
    return built;
  }

  /** Rejects a null inside a position entry (an entry ended with no values is the null). */
  void checkNullAllowed() {
    if (entryStart >= 0) {
      throw new IllegalStateException(
          "a null inside a position entry: end the entry without values to append a null");
    }
  }

  // the arithmetic of built blocks, shared by the four block classes

  static int valueCount(int[] firstValueIndexes, long[] nulls, int position, int positionCount) {
    NullMask.checkIndex(position, positionCount);
    if (NullMask.isNull(nulls, position)) {
      return 0;
    }
    return firstValueIndexes == null
        ? 1
        : firstValueIndexes[position + 1] - firstValueIndexes[position];
  }

  static int firstValueIndex(int[] firstValueIndexes, int position, int positionCount) {
    NullMask.checkIndex(position, positionCount);
    return firstValueIndexes == null ? position : firstValueIndexes[position];
  }

  /** Value slots less the nulls' (a null position takes one slot). */
  static int totalValueCount(long[] nulls, int positionCount, int valueSlots) {
    int nullCount = 0;
    if (nulls != null) {
      for (int p = 0; p < positionCount; p++) {
        if (NullMask.isNull(nulls, p)) {
          nullCount++;
        }
      }
    }
    return valueSlots - nullCount;
  }

  static long ramBytesUsed(int[] firstValueIndexes) {
    return firstValueIndexes == null ? 0 : 16L + 4L * firstValueIndexes.length;
  }
}
