package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link KeyValueCells#mayBeJson}, the check a key=value run asks of every event: the text, as
 * {@code String.strip} leaves it, starts with <code>{</code> and ends with <code>}</code> —
 * computed here from {@code strip} over the bytes read as ISO-8859-1 (every byte one character; no
 * character from 128 to 255 is whitespace to {@code Character.isWhitespace}, as no negative byte is
 * to the byte check), for texts inside a larger array, whitespace and braces on both edges.
 */
class KeyValueCellsJsonTest {
  // whitespace of every kind String.strip takes in ASCII, braces, bytes above 127, plain text
  private static final byte[] ALPHABET = {
    ' ',
    '\t',
    '\n',
    0x0B,
    '\f',
    '\r',
    0x1C,
    0x1F,
    '{',
    '}',
    'a',
    '=',
    '"',
    '!',
    0x7F,
    (byte) 0x85,
    (byte) 0xA0,
    (byte) 0xFF,
    0
  };

  private static boolean byStrip(byte[] bytes, int offset, int length) {
    String text = new String(bytes, offset, length, StandardCharsets.ISO_8859_1).strip();
    return text.length() >= 2 && text.startsWith("{") && text.endsWith("}");
  }

  @Test
  void answersAsStripOverRandomTexts() {
    Random random = new Random(38);
    int json = 0;
    for (int round = 0; round < 200_000; round++) {
      byte[] bytes = new byte[2 + random.nextInt(12)];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = ALPHABET[random.nextInt(ALPHABET.length)];
      }
      int offset = random.nextInt(bytes.length);
      int length = random.nextInt(bytes.length - offset + 1);
      boolean expected = byStrip(bytes, offset, length);
      json += expected ? 1 : 0;
      assertThat(KeyValueCells.mayBeJson(bytes, offset, length))
          .as("%s at %d, %d bytes", java.util.Arrays.toString(bytes), offset, length)
          .isEqualTo(expected);
    }
    assertThat(json).as("texts that are JSON-like").isGreaterThan(100);
  }

  @Test
  void handPickedTexts() {
    assertThat(mayBeJson("{}")).isTrue();
    assertThat(mayBeJson(" \t{\"a\": 1}\r\n")).isTrue();
    assertThat(mayBeJson("\u001c{x}\u001f")).isTrue();
    assertThat(mayBeJson("{")).isFalse();
    assertThat(mayBeJson("")).isFalse();
    assertThat(mayBeJson("   ")).isFalse();
    assertThat(mayBeJson("1.2.3.4 - - {x}"))
        .isFalse(); // an access-log line: its first byte decides
    assertThat(mayBeJson("{x} y")).isFalse();
    assertThat(mayBeJson("\u00a0{x}")).isFalse(); // a no-break space is no whitespace to strip
  }

  private static boolean mayBeJson(String text) {
    byte[] bytes = ("<<" + text + ">>").getBytes(StandardCharsets.ISO_8859_1);
    return KeyValueCells.mayBeJson(bytes, 2, bytes.length - 4);
  }
}
