package io.quarry.plugin.api.data;

import java.util.Arrays;

/**
 * What a {@link BytesBlock.OrdinalBuilder} builds: the ordinals of a dictionary block into its
 * dictionary, one per value slot ({@code -1} for a null's slot), with the nulls and the positions
 * of several values. The public builder type stays nested in {@link BytesBlock} (SPI 1.5) and
 * delegates here; the factory's accounting is the builder's. The slots, nulls and positions are
 * counted by {@link BytesSlots}.
 */
final class OrdinalSlots extends BytesSlots {
  private final BytesBlock dictionary;
  private final int entries;
  private int[] ordinals;

  OrdinalSlots(BytesBlock dictionary, int expectedSize) {
    BytesBlock.checkDictionary(dictionary);
    this.dictionary = dictionary;
    this.entries = dictionary.positionCount();
    this.ordinals = new int[Math.max(expectedSize, 8)];
  }

  void appendOrdinal(int ordinal) {
    if (ordinal < 0 || ordinal >= entries) {
      throw new IndexOutOfBoundsException(
          "ordinal " + ordinal + " out of a dictionary of " + entries);
    }
    slot(ordinal);
  }

  @Override
  void nullSlot() {
    slot(-1);
  }

  private void slot(int ordinal) {
    if (size() == ordinals.length) {
      ordinals = Arrays.copyOf(ordinals, ordinals.length * 2);
    }
    ordinals[nextSlot()] = ordinal;
  }

  @Override
  BytesBlock build(long[] nulls, int[] firstValueIndexes, int positionCount) {
    int size = size();
    return new BytesBlock(
        dictionary, Arrays.copyOf(ordinals, size), size, nulls, firstValueIndexes, positionCount);
  }
}
