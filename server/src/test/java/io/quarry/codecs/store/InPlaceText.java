package io.quarry.codecs.store;

/**
 * For the server's tests: an {@link AsciiText} over a range of an array, as a scan makes one over a
 * decoded journal block ({@link AsciiText#reset} is the store's own; this test class shares its
 * package to reach it).
 */
public final class InPlaceText {
  private InPlaceText() {}

  /** Points {@code text} at {@code bytes[offset, offset + length)}, which must be ASCII. */
  public static AsciiText over(AsciiText text, byte[] bytes, int offset, int length) {
    return text.reset(bytes, offset, length);
  }
}
