package io.quarry.plugin.api;

/**
 * The version of this SPI, {@code major.minor}. A plugin declares the version it was built against
 * ({@code spi.version} in its {@code plugin.properties}); it loads when the majors are equal and
 * its minor is at most this one. Minor versions only add (default methods, new types); a major
 * version may remove.
 */
public final class SpiVersion {
  public static final int MAJOR = 1;

  /**
   * 1: {@code Operator.isBlocked} (operators that wait on something outside the search). 2: block
   * positions with several values ({@code Block.getValueCount}, {@code getFirstValueIndex}, the
   * accessors by value index, the builders' position entries; input pages carry multivalues as such
   * instead of one newline-joined text) and {@code ArgumentSpec.alsoPositional} (an argument given
   * without its name, as Splunk's commands take theirs). 3: string values as bytes without a copy
   * or a {@code String} ({@code BytesBlock.getBytes} into a {@code ByteSlice}, {@code
   * BytesBlock.Builder.append(byte[], int, int)}). 4: memory accounts with a parent (a breaker over
   * every running search: {@code new MemoryAccount(owner, limit, parent)}, {@code close}, {@code
   * owner}) and {@code MemoryLimitExceededException.owner}. 5: string blocks in dictionary and
   * constant forms ({@code BytesBlock.dictionary}, {@code getOrdinal}, {@code isConstant}, {@code
   * BytesBlock.constant}, {@code BytesBlock.ordinalBuilder}, {@code
   * BlockFactory.newOrdinalBytesBlockBuilder}, {@code newConstantBytesBlock}); every accessor reads
   * them as before, so a plugin built against 1.4 runs unchanged. 6: a string block's values may be
   * numbers written as their text ({@code BytesBlock.isNumber}, {@code isDouble}, {@code
   * mayHaveNumbers}, {@code BytesBlock.Builder.appendNumber}, {@code appendDouble}): a column
   * mixing numbers and text in one page, each number tagged a double or a whole number; every
   * accessor reads such a value as its text, as before.
   */
  public static final int MINOR = 6;

  private SpiVersion() {}

  /** {@code "major.minor"} of this SPI. */
  public static String current() {
    return MAJOR + "." + MINOR;
  }

  /**
   * Whether a plugin built against {@code declared} ({@code "1"}, {@code "1.0"}) runs on this SPI.
   *
   * @throws IllegalArgumentException when {@code declared} is not a version
   */
  public static boolean supports(String declared) {
    String[] parts = declared.trim().split("\\.");
    try {
      int major = Integer.parseInt(parts[0]);
      int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
      return major == MAJOR && minor <= MINOR;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + declared + "' is not a version like 1.0", e);
    }
  }
}
