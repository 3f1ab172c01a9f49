package io.quarry.server.hec;

import com.fasterxml.jackson.core.JsonParser;
import java.util.Arrays;

/**
 * The bytes of a JSON string token straight from the request body, when the string is ASCII with no
 * escapes: then its text is its bytes, one a character, and neither Jackson's decoding nor the
 * store's encoding is needed. Anything else (an escape, a byte of a multi-byte character, a control
 * character, a parser whose offsets are not the body's bytes) gives null, and the text is read as
 * Jackson decodes it.
 */
final class EventStringBytes {
  private EventStringBytes() {}

  /**
   * The bytes of the string that is {@code parser}'s current token (a {@code VALUE_STRING} not yet
   * read), or null.
   *
   * @param body the bytes the parser reads, from the first (null when not known)
   */
  static byte[] of(JsonParser parser, byte[] body) {
    if (body == null) {
      return null;
    }
    long quote = parser.currentTokenLocation().getByteOffset(); // -1 for a parser of characters
    if (quote < 0 || quote >= body.length || body[(int) quote] != '"') {
      return null;
    }
    int start = (int) quote + 1;
    for (int i = start; i < body.length; i++) {
      byte b = body[i];
      if (b == '"') {
        return Arrays.copyOfRange(body, start, i);
      }
      if (b == '\\' || b < 0x20) { // an escape, a control character, or (negative) not ASCII
        return null;
      }
    }
    return null;
  }
}
