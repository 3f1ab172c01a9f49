package io.quarry.plugin.api.data;

/**
 * One column of a {@link Page}: {@code positionCount()} values of one {@link DataType}, each of
 * which may be null. Blocks are immutable once built.
 */
public sealed interface Block permits LongBlock, DoubleBlock, BooleanBlock, BytesBlock {

  int positionCount();

  boolean isNull(int position);

  /** The type of the values in the block (a long block may carry {@link DataType#TIMESTAMP}). */
  DataType dataType();

  /** The value at a position as a Java object (Long, Double, Boolean, String) or null. */
  Object getObject(int position);

  /**
   * The heap bytes the block's arrays hold: what a {@link BlockFactory} reserves for it against the
   * search's {@link MemoryAccount}.
   */
  long ramBytesUsed();
}
