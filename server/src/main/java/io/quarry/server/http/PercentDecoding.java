package io.quarry.server.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Decodes the percent-escapes of a URI path (RFC 3986: {@code +} stays a plus sign), strictly: a
 * {@code %} not followed by two hex digits, or escapes that are not UTF-8, are an {@link
 * IllegalArgumentException} naming the offset, which the HTTP layer answers with 400.
 */
final class PercentDecoding {
  private PercentDecoding() {}

  static String decodePath(String raw) {
    int first = raw.indexOf('%');
    if (first < 0) {
      return raw;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
    byte[] plain = raw.getBytes(StandardCharsets.UTF_8);
    // offsets below are in the raw text; a non-ASCII character in it is kept as its UTF-8 bytes
    int i = 0;
    while (i < plain.length) {
      byte b = plain[i];
      if (b != '%') {
        bytes.write(b);
        i++;
        continue;
      }
      int high = i + 1 < plain.length ? Character.digit(plain[i + 1], 16) : -1;
      int low = i + 2 < plain.length ? Character.digit(plain[i + 2], 16) : -1;
      if (high < 0 || low < 0) {
        throw new IllegalArgumentException(
            "'%' at offset " + i + " of the path is not followed by two hex digits");
      }
      bytes.write(high << 4 | low);
      i += 3;
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("the path's percent-escapes are not UTF-8 text");
    }
  }
}
