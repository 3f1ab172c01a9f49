package io.quarry.plugin.api.data;

import java.nio.charset.StandardCharsets;

/**
 * A block of UTF-8 strings. See {@link Block} for positions with several values. It holds its
 * values in one of three forms, which read the same through every accessor (a plugin that only
 * reads values needs to know none of this):
 *
 * <ul>
 *   <li><b>plain</b>: the values back to back in one byte array, with an offset per value and one
 *       more: value {@code i} is {@code bytes[offsets[i], offsets[i + 1])};
 *   <li><b>dictionary</b> (since SPI 1.5): an ordinal per value into a {@link #dictionary()} of
 *       distinct strings, as a low-cardinality column ({@code host}, {@code status}) is stored by
 *       an index: value {@code i} is the dictionary's entry {@link #getOrdinal}{@code (i)}. Code
 *       that groups, compares or hashes values can work on the dictionary's entries once and on the
 *       ordinals per position;
 *   <li><b>constant</b> (since SPI 1.5): one value at every position ({@code eval x="text"}), a
 *       dictionary of one entry and no per-position array at all ({@link #isConstant()}).
 * </ul>
 *
 * <p>Since SPI 1.6 a value may be tagged as a <b>number written as its text</b> ({@link
 * #isNumber}): the engine keeps a column whose page mixes numbers and text ({@code eval x=if(n==1,
 * 4, "a")}), or whole numbers past 2^53 and fractions, in a string block whose number values say
 * so, so that no value changes type because of what shares its page. Every accessor reads such a
 * value as its text, exactly as before 1.6; a plugin that copies the value into a block of its own
 * without the tag hands on text.
 *
 * <p>A dictionary block's memory ({@link #ramBytesUsed()}) includes its dictionary's, but a {@link
 * BlockFactory} reserves a dictionary shared by several blocks (a filtered copy keeps its source's;
 * the pages of one scan share a segment's) once per account: with the first block holding it,
 * released with the last (see {@link BlockFactory}).
 */
public final class BytesBlock implements Block {
  private final byte[] bytes; // plain: the values; dictionary or constant: the dictionary's
  private final int[] offsets; // plain: per value slot and one more; else per dictionary entry
  private final BytesBlock dictionary; // dictionary or constant form: the entries; plain: null
  private final int[] ordinals; // dictionary form: each value slot's entry (-1 for a null's slot)
  private final int valueSlots;
  private final long[] nulls;
  private final int[] firstValueIndexes;
  private final int positionCount;
  private final long[] numbers; // plain form: the value slots that are numbers' texts; else null
  private final long[] doubles; // plain form: of those, the slots written from doubles; else null

  /** A plain block ({@link PlainSlots#build}). */
  BytesBlock(
      byte[] bytes,
      int[] offsets,
      long[] nulls,
      int[] firstValueIndexes,
      int positionCount,
      long[] numbers,
      long[] doubles) {
    this.bytes = bytes;
    this.offsets = offsets;
    this.dictionary = null;
    this.ordinals = null;
    this.valueSlots = offsets.length - 1;
    this.numbers = numbers;
    this.doubles = doubles;
    this.nulls = nulls;
    this.firstValueIndexes = firstValueIndexes;
    this.positionCount = positionCount;
  }

  /** A dictionary block ({@code ordinals} per value slot) or a constant one ({@code null}). */
  BytesBlock(
      BytesBlock dictionary,
      int[] ordinals,
      int valueSlots,
      long[] nulls,
      int[] firstValueIndexes,
      int positionCount) {
    checkDictionary(dictionary);
    this.bytes = dictionary.bytes;
    this.offsets = dictionary.offsets;
    this.dictionary = dictionary;
    this.ordinals = ordinals;
    this.numbers = null; // the dictionary's entries carry the tags
    this.doubles = null;
    this.valueSlots = valueSlots;
    this.nulls = nulls;
    this.firstValueIndexes = firstValueIndexes;
    this.positionCount = positionCount;
  }

  /** Refuses a block that cannot be a dictionary (see {@link #ordinalBuilder}). */
  static void checkDictionary(BytesBlock dictionary) {
    if (dictionary.dictionary != null
        || dictionary.nulls != null
        || dictionary.firstValueIndexes != null) {
      throw new IllegalArgumentException(
          "a dictionary is a plain block of one value per position and no nulls");
    }
  }

  /**
   * A block of {@code positionCount} positions that all hold {@code utf8} (copied), in the constant
   * form: its memory does not grow with its positions. Since SPI 1.5.
   */
  public static BytesBlock constant(byte[] utf8, int positionCount) {
    BytesBlock entry = builder(1).append(utf8).build();
    return new BytesBlock(entry, null, positionCount, null, null, positionCount);
  }

  /** {@link #constant(byte[], int)} of a string's UTF-8 bytes. Since SPI 1.5. */
  public static BytesBlock constant(String value, int positionCount) {
    return constant(value.getBytes(StandardCharsets.UTF_8), positionCount);
  }

  /**
   * The distinct strings this block's values are ordinals into (entry {@code i} at position {@code
   * i}: one value each, no nulls), or null when the block holds its values itself (the plain form).
   * Entries need not all be used, nor be sorted. Since SPI 1.5.
   */
  public BytesBlock dictionary() {
    return dictionary;
  }

  /** Whether every position holds the one entry of {@link #dictionary()}. Since SPI 1.5. */
  public boolean isConstant() {
    return dictionary != null && ordinals == null;
  }

  /**
   * The {@link #dictionary()} entry of the value at a value index (see {@link
   * #getFirstValueIndex}); -1 for the slot of a null position. Since SPI 1.5.
   *
   * @throws IllegalStateException for a plain block (no dictionary)
   */
  public int getOrdinal(int valueIndex) {
    if (dictionary == null) {
      throw new IllegalStateException("a plain block has no ordinals");
    }
    NullMask.checkIndex(valueIndex, valueSlots);
    return ordinals == null ? 0 : ordinals[valueIndex];
  }

  /** Where value slot {@code valueIndex} lies among {@code offsets}: -1 for no bytes. */
  private int entry(int valueIndex) {
    return dictionary == null ? valueIndex : ordinals == null ? 0 : ordinals[valueIndex];
  }

  private int start(int entry) {
    return entry < 0 ? 0 : offsets[entry];
  }

  private int length(int entry) {
    return entry < 0 ? 0 : offsets[entry + 1] - offsets[entry];
  }

  /**
   * The value at a position decoded to a String (empty for a null position; its first value when it
   * has several).
   */
  public String getString(int position) {
    return string(getFirstValueIndex(position));
  }

  /** The UTF-8 length of the value at a position (of its first value when it has several). */
  public int getLength(int position) {
    return length(entry(getFirstValueIndex(position)));
  }

  /** The value at a value index (see {@link #getFirstValueIndex}) decoded to a String. */
  public String getStringValue(int valueIndex) {
    NullMask.checkIndex(valueIndex, valueSlots);
    return string(valueIndex);
  }

  /**
   * Points {@code into} at the UTF-8 bytes of the value at a value index, without copying them (the
   * view is valid as long as the block; do not modify it). Since SPI 1.3.
   *
   * @return {@code into}
   */
  public ByteSlice getBytes(int valueIndex, ByteSlice into) {
    NullMask.checkIndex(valueIndex, valueSlots);
    int entry = entry(valueIndex);
    return into.reset(bytes, start(entry), length(entry));
  }

  /** The UTF-8 length of the value at a value index. */
  public int getValueLength(int valueIndex) {
    NullMask.checkIndex(valueIndex, valueSlots);
    return length(entry(valueIndex));
  }

  /**
   * Whether the value at a value index is a number written as its text (a whole number's digits, a
   * fraction's shortest decimal, {@code inf}, {@code -inf}, {@code nan}) in a column that also
   * holds text, rather than a text; false for a null position's slot. The engine reads it as the
   * number; every accessor here reads its text. Since SPI 1.6.
   */
  public boolean isNumber(int valueIndex) {
    NullMask.checkIndex(valueIndex, valueSlots);
    if (dictionary != null) {
      int entry = entry(valueIndex);
      return entry >= 0 && dictionary.numbers != null && NullMask.isNull(dictionary.numbers, entry);
    }
    return numbers != null && NullMask.isNull(numbers, valueIndex);
  }

  /**
   * Whether the value at a value index is a number written as its text ({@link #isNumber}) that was
   * a double (a 64-bit float) rather than a whole number (a long): the engine reads {@code
   * 9007199254740992} tagged so as the double 2^53, untagged as the long. False for a value that is
   * no number. Since SPI 1.6.
   */
  public boolean isDouble(int valueIndex) {
    NullMask.checkIndex(valueIndex, valueSlots);
    if (dictionary != null) {
      int entry = entry(valueIndex);
      return entry >= 0 && dictionary.doubles != null && NullMask.isNull(dictionary.doubles, entry);
    }
    return doubles != null && NullMask.isNull(doubles, valueIndex);
  }

  /**
   * Whether some value may be a number written as its text ({@link #isNumber}); false means none
   * is, and code that reads text need not ask per value. Since SPI 1.6.
   */
  public boolean mayHaveNumbers() {
    return dictionary != null ? dictionary.numbers != null : numbers != null;
  }

  private String string(int valueIndex) {
    int entry = entry(valueIndex);
    return new String(bytes, start(entry), length(entry), StandardCharsets.UTF_8);
  }

  @Override
  public int positionCount() {
    return positionCount;
  }

  @Override
  public boolean isNull(int position) {
    NullMask.checkIndex(position, positionCount);
    return NullMask.isNull(nulls, position);
  }

  @Override
  public DataType dataType() {
    return DataType.STRING;
  }

  @Override
  public Object getObject(int position) {
    return isNull(position) ? null : getString(position);
  }

  @Override
  public int getValueCount(int position) {
    return Positions.valueCount(firstValueIndexes, nulls, position, positionCount);
  }

  @Override
  public int getFirstValueIndex(int position) {
    return Positions.firstValueIndex(firstValueIndexes, position, positionCount);
  }

  @Override
  public int getTotalValueCount() {
    return Positions.totalValueCount(nulls, positionCount, valueSlots);
  }

  @Override
  public boolean mayHaveMultivaluedFields() {
    return firstValueIndexes != null;
  }

  @Override
  public long ramBytesUsed() {
    long own =
        16L
            + (nulls == null ? 0 : 8L * nulls.length)
            + (numbers == null ? 0 : 16L + 8L * numbers.length)
            + (doubles == null ? 0 : 16L + 8L * doubles.length)
            + Positions.ramBytesUsed(firstValueIndexes);
    if (dictionary == null) {
      return own + bytes.length + 4L * offsets.length;
    }
    return own + (ordinals == null ? 0 : 16L + 4L * ordinals.length) + dictionary.ramBytesUsed();
  }

  public static Builder builder(int expectedSize) {
    return new Builder(expectedSize);
  }

  /**
   * Appends positions one at a time: a value, a null, or between {@link #beginPositionEntry} and
   * {@link #endPositionEntry} the values of one position.
   */
  public static final class Builder {
    private final PlainSlots slots; // the implementation, in its own file
    private BlockFactory factory;

    private Builder(int expectedSize) {
      this.slots = new PlainSlots(expectedSize);
    }

    /** Appends a position of one value, or a value to the open position entry. */
    public Builder append(String value) {
      return append(value.getBytes(StandardCharsets.UTF_8));
    }

    /** Appends a position of one UTF-8 value, or a value to the open position entry. */
    public Builder append(byte[] utf8) {
      return append(utf8, 0, utf8.length);
    }

    /**
     * Appends a position of one UTF-8 value given as {@code utf8[offset, offset + length)}, or a
     * value to the open position entry; the bytes are copied. Since SPI 1.3.
     */
    public Builder append(byte[] utf8, int offset, int length) {
      slots.append(utf8, offset, length);
      return this;
    }

    /**
     * Appends a number written as its text ({@link BytesBlock#isNumber}), as a position of one
     * value or a value of the open position entry. Since SPI 1.6.
     */
    public Builder appendNumber(String text) {
      byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
      return appendNumber(utf8, 0, utf8.length);
    }

    /**
     * {@link #appendNumber(String)} of UTF-8 bytes {@code utf8[offset, offset + length)}, copied.
     * Since SPI 1.6.
     */
    public Builder appendNumber(byte[] utf8, int offset, int length) {
      slots.nextIsNumber();
      return append(utf8, offset, length);
    }

    /**
     * Appends a double written as its text (the shortest decimal that reads back as it, {@code
     * inf}, {@code -inf}, {@code nan}): a number ({@link BytesBlock#isNumber}) that is a double
     * ({@link BytesBlock#isDouble}), even when its text is a whole number's digits. Since SPI 1.6.
     */
    public Builder appendDouble(String text) {
      byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
      return appendDouble(utf8, 0, utf8.length);
    }

    /**
     * {@link #appendDouble(String)} of UTF-8 bytes {@code utf8[offset, offset + length)}, copied.
     * Since SPI 1.6.
     */
    public Builder appendDouble(byte[] utf8, int offset, int length) {
      slots.nextIsDouble();
      return appendNumber(utf8, offset, length);
    }

    /** Appends the value, or a null for null. */
    public Builder appendNullable(String value) {
      return value == null ? appendNull() : append(value);
    }

    /** Appends a null position (not allowed inside a position entry). */
    public Builder appendNull() {
      slots.appendNull();
      return this;
    }

    /** Starts a position whose values are the {@link #append}s up to {@link #endPositionEntry}. */
    public Builder beginPositionEntry() {
      slots.beginPositionEntry();
      return this;
    }

    /** Ends the position entry; one without values is a null position. */
    public Builder endPositionEntry() {
      slots.endPositionEntry();
      return this;
    }

    /**
     * Builds the block (reserved against the factory's account when the factory made the builder).
     */
    public BytesBlock build() {
      BytesBlock block = slots.build();
      if (factory != null) {
        factory.reserve(block);
      }
      return block;
    }

    Builder accountedBy(BlockFactory factory) {
      this.factory = factory;
      return this;
    }
  }

  /**
   * A builder of a dictionary block over {@code dictionary} (a plain block of one value per
   * position and no nulls; its memory becomes the built block's: whoever built it does not release
   * it separately). Since SPI 1.5.
   */
  public static OrdinalBuilder ordinalBuilder(BytesBlock dictionary, int expectedSize) {
    return new OrdinalBuilder(dictionary, expectedSize);
  }

  /**
   * Appends positions of a dictionary block one at a time: an ordinal into the dictionary, a null,
   * or between {@link #beginPositionEntry} and {@link #endPositionEntry} the ordinals of one
   * position. Since SPI 1.5.
   */
  public static final class OrdinalBuilder {
    private final OrdinalSlots slots; // the implementation, in its own file
    private BlockFactory factory;

    private OrdinalBuilder(BytesBlock dictionary, int expectedSize) {
      this.slots = new OrdinalSlots(dictionary, expectedSize);
    }

    /** Appends a position of one value, or a value to the open position entry. */
    public OrdinalBuilder appendOrdinal(int ordinal) {
      slots.appendOrdinal(ordinal);
      return this;
    }

    /** Appends a null position (not allowed inside a position entry). */
    public OrdinalBuilder appendNull() {
      slots.appendNull();
      return this;
    }

    /** Starts a position whose values are the ordinals up to {@link #endPositionEntry}. */
    public OrdinalBuilder beginPositionEntry() {
      slots.beginPositionEntry();
      return this;
    }

    /** Ends the position entry; one without values is a null position. */
    public OrdinalBuilder endPositionEntry() {
      slots.endPositionEntry();
      return this;
    }

    /**
     * Builds the block (reserved against the factory's account, dictionary included, when the
     * factory made the builder).
     */
    public BytesBlock build() {
      BytesBlock block = slots.build();
      if (factory != null) {
        factory.reserve(block);
      }
      return block;
    }

    OrdinalBuilder accountedBy(BlockFactory factory) {
      this.factory = factory;
      return this;
    }
  }
}
