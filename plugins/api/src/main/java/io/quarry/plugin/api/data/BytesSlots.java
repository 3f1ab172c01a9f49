package io.quarry.plugin.api.data;

/**
 * What the two writers of a {@link BytesBlock}'s value slots share ({@link PlainSlots}, {@link
 * OrdinalSlots}): a slot per value or null, counted here ({@link #nextSlot}); the nulls; the
 * position entries, an empty one becoming a null; and the build's order — the positions closed
 * first, then the block made of the writer's own slots ({@link #build(long[], int[], int)}).
 */
abstract class BytesSlots {
  private final NullMask nulls = new NullMask();
  private final Positions positions = new Positions();
  private int size; // value slots

  /** How many value slots are written. */
  final int size() {
    return size;
  }

  /**
   * The index of the value slot about to be written, now counted: a position of its own unless an
   * entry is open.
   */
  final int nextSlot() {
    if (!positions.entryOpen()) {
      positions.single(size);
    }
    return size++;
  }

  /** Appends a null: its position marked, its slot written by {@link #nullSlot}. */
  final void appendNull() {
    positions.checkNullAllowed();
    nulls.set(positions.positionCount());
    nullSlot();
  }

  /** Writes the slot of a null (through {@link #nextSlot}). */
  abstract void nullSlot();

  final void beginPositionEntry() {
    positions.begin(size);
  }

  final void endPositionEntry() {
    if (positions.end(size) == 0) {
      appendNull();
    }
  }

  final BytesBlock build() {
    int[] firstValueIndexes = positions.build(size);
    return build(nulls.build(), firstValueIndexes, positions.positionCount());
  }

  /** The block of the slots written, with {@code nulls} and the positions' first value indexes. */
  abstract BytesBlock build(long[] nulls, int[] firstValueIndexes, int positionCount);
}
