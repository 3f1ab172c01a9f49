package io.quarry.plugin.api.data;

import static java.util.Objects.requireNonNull;

/**
 * Makes block builders whose blocks are reserved against a {@link MemoryAccount} when built.
 *
 * <p>Ownership: whoever holds a block it did not pass on releases it. An operator owns the pages
 * given to {@code addInput} and gives up the pages it returns from {@code getOutput}; a block that
 * goes from an input page into an output page unchanged moves with it and needs nothing. Operator
 * state that is not blocks (hash tables, sketches) is reserved with {@link #reserve(long, String)}
 * and released when dropped.
 *
 * <p>A string block's dictionary ({@link BytesBlock#dictionary()}) is reserved once however many
 * blocks hold it (a dictionary block and its filtered copies, the pages of a scan over one segment
 * dictionary): with the first block reserved that holds it, released with the last such block
 * released. Reserving and releasing blocks of one dictionary through factories of one account is
 * exact; the same block released twice is a bug as before.
 */
public final class BlockFactory {
  private final MemoryAccount account;

  public BlockFactory(MemoryAccount account) {
    this.account = requireNonNull(account, "account is null");
  }

  public MemoryAccount account() {
    return account;
  }

  public LongBlock.Builder newLongBlockBuilder(int expectedSize) {
    return LongBlock.builder(DataType.LONG, expectedSize).accountedBy(this);
  }

  public LongBlock.Builder newTimestampBlockBuilder(int expectedSize) {
    return LongBlock.builder(DataType.TIMESTAMP, expectedSize).accountedBy(this);
  }

  public DoubleBlock.Builder newDoubleBlockBuilder(int expectedSize) {
    return DoubleBlock.builder(expectedSize).accountedBy(this);
  }

  public BooleanBlock.Builder newBooleanBlockBuilder(int expectedSize) {
    return BooleanBlock.builder(expectedSize).accountedBy(this);
  }

  public BytesBlock.Builder newBytesBlockBuilder(int expectedSize) {
    return BytesBlock.builder(expectedSize).accountedBy(this);
  }

  /**
   * A builder of a dictionary block over {@code dictionary} (see {@link
   * BytesBlock#ordinalBuilder}); the built block is reserved, its dictionary once for all the
   * blocks holding it (see the class comment). Since SPI 1.5.
   */
  public BytesBlock.OrdinalBuilder newOrdinalBytesBlockBuilder(
      BytesBlock dictionary, int expectedSize) {
    return BytesBlock.ordinalBuilder(dictionary, expectedSize).accountedBy(this);
  }

  /** A reserved block of {@code positions} positions that all hold {@code value}. Since SPI 1.5. */
  public BytesBlock newConstantBytesBlock(String value, int positions) {
    BytesBlock block = BytesBlock.constant(value, positions);
    reserve(block);
    return block;
  }

  /** A block of {@code positions} nulls of {@code type}. */
  public Block newNullBlock(DataType type, int positions) {
    return switch (type) {
      case LONG, TIMESTAMP -> {
        LongBlock.Builder builder = LongBlock.builder(type, positions).accountedBy(this);
        for (int i = 0; i < positions; i++) {
          builder.appendNull();
        }
        yield builder.build();
      }
      case DOUBLE -> {
        DoubleBlock.Builder builder = newDoubleBlockBuilder(positions);
        for (int i = 0; i < positions; i++) {
          builder.appendNull();
        }
        yield builder.build();
      }
      case BOOLEAN -> {
        BooleanBlock.Builder builder = newBooleanBlockBuilder(positions);
        for (int i = 0; i < positions; i++) {
          builder.appendNull();
        }
        yield builder.build();
      }
      case STRING -> {
        BytesBlock.Builder builder = newBytesBlockBuilder(positions);
        for (int i = 0; i < positions; i++) {
          builder.appendNull();
        }
        yield builder.build();
      }
    };
  }

  /**
   * {@code page} with a column added, or replacing the column of that name, whose old block is
   * released (the caller owned it; the operator that calls this owns its input page).
   */
  public Page withColumn(Page page, String name, Block block) {
    Block replaced = page.block(name);
    if (replaced != null && replaced != block) {
      release(replaced);
    }
    return page.withColumn(name, block);
  }

  /**
   * Reserves a block someone else built (a block adopted from outside this factory): its own
   * arrays, and its dictionary unless another block of this account holds it already.
   */
  public void reserve(Block block) {
    BytesBlock dictionary = block instanceof BytesBlock bytes ? bytes.dictionary() : null;
    if (dictionary == null) {
      account.reserve(block.ramBytesUsed(), "block");
      return;
    }
    long shared = dictionary.ramBytesUsed();
    long own = block.ramBytesUsed() - shared;
    account.reserve(own, "block");
    try {
      account.reserveShared(dictionary, shared, "block dictionary");
    } catch (RuntimeException e) {
      account.release(own);
      throw e;
    }
  }

  /** Reserves operator state. */
  public void reserve(long bytes, String what) {
    account.reserve(bytes, what);
  }

  public void release(long bytes) {
    account.release(bytes);
  }

  /** Releases a block: its own arrays, and its dictionary when no other block holds it. */
  public void release(Block block) {
    BytesBlock dictionary = block instanceof BytesBlock bytes ? bytes.dictionary() : null;
    if (dictionary == null) {
      account.release(block.ramBytesUsed());
      return;
    }
    long shared = dictionary.ramBytesUsed();
    account.release(block.ramBytesUsed() - shared);
    account.releaseShared(dictionary, shared);
  }

  /** Releases every block of a page. */
  public void release(Page page) {
    for (Block block : page.blocks()) {
      release(block);
    }
  }
}
