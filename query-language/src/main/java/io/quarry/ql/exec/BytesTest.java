package io.quarry.ql.exec;

import io.quarry.plugin.api.data.ByteSlice;

/**
 * A bound text test ({@code match} with a regex in {@link SimpleRegex}'s subset, {@code like}) that
 * can answer from a text value's UTF-8 bytes as a string block holds them, without decoding a
 * {@code String} per position; where the bytes cannot tell (a non-ASCII text a regex or {@code _}
 * must read by characters) the caller decodes and {@link #apply applies} it.
 */
public interface BytesTest extends BoundFunction {
  /**
   * What {@link #apply} answers for the text whose UTF-8 bytes {@code utf8} holds, or null when
   * only the decoded text can tell.
   */
  Boolean test(ByteSlice utf8);

  /** The test that answers {@code overText} over a value and {@code overBytes} over bytes. */
  static BytesTest of(
      BoundFunction overText, java.util.function.Function<ByteSlice, Boolean> overBytes) {
    return new BytesTest() {
      @Override
      public Object apply(Object subject) {
        return overText.apply(subject);
      }

      @Override
      public Boolean test(ByteSlice utf8) {
        return overBytes.apply(utf8);
      }
    };
  }
}
