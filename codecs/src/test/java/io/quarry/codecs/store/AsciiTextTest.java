package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AsciiTextTest {
  @Test
  void findsANonAsciiByteAtEveryPositionAndLength() {
    for (int length = 0; length < 80; length++) { // the 32-byte steps, the 8-byte ones, the tail
      byte[] bytes = new byte[length + 6];
      java.util.Arrays.fill(bytes, (byte) 'a');
      assertThat(AsciiText.isAscii(bytes, 3, length)).isTrue();
      for (int at = 0; at < length; at++) {
        bytes[3 + at] = (byte) 0xC3;
        assertThat(AsciiText.isAscii(bytes, 3, length)).as("length %d at %d", length, at).isFalse();
        bytes[3 + at] = (byte) 0x7F;
        assertThat(AsciiText.isAscii(bytes, 3, length)).isTrue();
        bytes[3 + at] = 'a';
      }
      bytes[0] = (byte) 0xFF; // outside the range: not looked at
      bytes[bytes.length - 1] = (byte) 0xFF;
      assertThat(AsciiText.isAscii(bytes, 3, length)).isTrue();
      bytes[0] = 'a';
      bytes[bytes.length - 1] = 'a';
    }
  }

  @Test
  void givesTheBytesOfAnAsciiStringOnly() {
    assertThat(AsciiText.bytesOf("GET /a?b=C HTTP/1.1\u007F"))
        .isEqualTo("GET /a?b=C HTTP/1.1\u007F".getBytes(StandardCharsets.US_ASCII));
    assertThat(AsciiText.bytesOf("")).isEmpty();
    assertThat(AsciiText.bytesOf("caf\u00e9")).isNull(); // Latin-1, two UTF-8 bytes
    assertThat(AsciiText.bytesOf("a\u0100")).isNull();
    // an unpaired surrogate, which the JDK encodes as one byte '?'
    assertThat(AsciiText.bytesOf("a\uD800b")).isNull();
    assertThat(AsciiText.bytesOf("?\uDC00")).isNull();
    assertThat(AsciiText.bytesOf("\uD83D\uDE00")).isNull();
  }

  /**
   * A lone surrogate (one byte, {@code ?}, in the JDK's UTF-8) at every position of texts of every
   * length up to 40, with and without real question marks around it: never taken for ASCII; the
   * same texts without it are, with their own bytes.
   */
  @Test
  void findsALoneSurrogateAtEveryPositionAmongQuestionMarks() {
    for (int length = 1; length <= 40; length++) {
      for (int at = 0; at < length; at++) {
        for (char filler : new char[] {'a', '?'}) {
          char[] chars = new char[length];
          java.util.Arrays.fill(chars, filler);
          String ascii = new String(chars);
          assertThat(AsciiText.bytesOf(ascii)).isEqualTo(ascii.getBytes(StandardCharsets.US_ASCII));
          for (char surrogate : new char[] {'\uD800', '\uDFFF'}) {
            chars[at] = surrogate;
            assertThat(AsciiText.bytesOf(new String(chars)))
                .as("length %d, a lone surrogate at %d among %s", length, at, filler)
                .isNull();
          }
        }
      }
    }
  }

  @Test
  void readsAndCopiesItsRangeOnly() {
    byte[] bytes = "xx10.1.2.3 GET /ayy".getBytes(StandardCharsets.US_ASCII);
    AsciiText text = new AsciiText().reset(bytes, 2, 15);
    assertThat(text.length()).isEqualTo(15);
    assertThat(text.charAt(0)).isEqualTo('1');
    assertThat(text.toString()).isEqualTo("10.1.2.3 GET /a");
    assertThat(text.subSequence(0, 8)).isEqualTo("10.1.2.3");
    assertThat(text.subSequence(15, 15)).isEmpty();
    assertThat(java.util.regex.Pattern.compile("^(\\S+) (\\w+)").matcher(text).lookingAt())
        .isTrue();
    bytes[2] = '9'; // a view: the bytes are read, not copied
    assertThat(text.charAt(0)).isEqualTo('9');
    assertThatThrownBy(() -> text.charAt(15)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> text.charAt(-1)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> text.subSequence(3, 16)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> text.subSequence(4, 3)).isInstanceOf(IndexOutOfBoundsException.class);
  }
}
