package io.quarry.plugin.api.data;

import java.util.Arrays;

/**
 * What a {@link BytesBlock.Builder} builds: the values of a plain block back to back in one growing
 * byte array, with the offset of each value slot and one more, the nulls, the positions of several
 * values, and which slots are numbers written as their text ({@link BytesBlock#isNumber}) and of
 * those which were doubles ({@link BytesBlock#isDouble}). The public builder type stays nested in
 * {@link BytesBlock} (its methods are the SPI) and delegates here, as {@link
 * BytesBlock.OrdinalBuilder} does to {@link OrdinalSlots}; the factory's accounting is the
 * builder's. The slots, nulls and positions are counted by {@link BytesSlots}.
 */
final class PlainSlots extends BytesSlots {
  private final NullMask numbers = new NullMask(); // the value slots that are numbers' texts
  private final NullMask doubles = new NullMask(); // of those, the slots written from doubles
  private byte[] bytes;
  private int[] offsets;

  PlainSlots(int expectedSize) {
    int positions = Math.max(expectedSize, 8);
    this.bytes = new byte[positions * 16];
    this.offsets = new int[positions + 1];
  }

  /** Appends {@code utf8[offset, offset + length)} (copied) as the next value slot. */
  void append(byte[] utf8, int offset, int length) {
    int size = size();
    int start = offsets[size];
    if (start + length > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, start + length));
    }
    System.arraycopy(utf8, offset, bytes, start, length);
    if (size + 1 == offsets.length) {
      offsets = Arrays.copyOf(offsets, offsets.length * 2);
    }
    offsets[nextSlot() + 1] = start + length;
  }

  /** Tags the next value slot as a number written as its text. */
  void nextIsNumber() {
    numbers.set(size());
  }

  /** Tags the next value slot as a double written as its text (also tag it a number). */
  void nextIsDouble() {
    doubles.set(size());
  }

  @Override
  void nullSlot() {
    append(new byte[0], 0, 0);
  }

  @Override
  BytesBlock build(long[] nulls, int[] firstValueIndexes, int positionCount) {
    int size = size();
    return new BytesBlock(
        Arrays.copyOf(bytes, offsets[size]),
        Arrays.copyOf(offsets, size + 1),
        nulls,
        firstValueIndexes,
        positionCount,
        numbers.build(),
        doubles.build());
  }
}
