package io.quarry.plugin.api.data;

import java.util.Arrays;

/**
 * What a {@link BytesBlock.OrdinalBuilder} builds: the ordinals of a dictionary block into its
 * dictionary, one per value slot ({@code -1} for a null's slot), with the nulls and the positions
 * of several values. The public builder type stays nested in {@link BytesBlock} (SPI 1.5) and
 * delegates here; the factory's accounting is the builder's.
 */
final class OrdinalSlots {
  private final NullMask nulls = new NullMask();
  private final Positions positions = new Positions();
  private final BytesBlock dictionary;
  private final int entries;
  private int[] ordinals;
  private int size; // value slots

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

  void appendNull() {
    positions.checkNullAllowed();
    nulls.set(positions.positionCount());
    slot(-1);
  }

  private void slot(int ordinal) {
    if (size == ordinals.length) {
      ordinals = Arrays.copyOf(ordinals, ordinals.length * 2);
    }
    if (!positions.entryOpen()) {
      positions.single(size);
    }
    ordinals[size++] = ordinal;
  }

  void beginPositionEntry() {
    positions.begin(size);
  }

  void endPositionEntry() {
    if (positions.end(size) == 0) {
      appendNull();
    }
  }

  BytesBlock build() {
    int[] firstValueIndexes = positions.build(size);
    return new BytesBlock(
        dictionary,
        Arrays.copyOf(ordinals, size),
        size,
        nulls.build(),
        firstValueIndexes,
        positions.positionCount());
  }
}
