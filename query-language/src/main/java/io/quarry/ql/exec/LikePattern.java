package io.quarry.ql.exec;

import io.quarry.plugin.api.data.ByteSlice;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code like} pattern matched over a text's UTF-8 bytes: {@code %} any run of characters, {@code
 * _} exactly one, anything else itself, the whole text matched (case-sensitive). The pieces between
 * the {@code %}s are matched as bytes — UTF-8 is self-synchronizing, so a piece found in the bytes
 * is the same characters in the text — the first piece at the start, the last at the end, each
 * middle one at its leftmost place after the previous (for pieces of fixed length the leftmost
 * choice never loses a match). A {@code _} is one byte, so a pattern with one answers only over
 * ASCII text: over other text {@link #matches} cannot tell (null) and the caller matches the
 * decoded text.
 */
final class LikePattern {
  private static final int ANY = -1; // _: one character

  private final int[][] pieces; // between the %s; the first and last may be empty
  private final boolean hasAny;

  LikePattern(String pattern) {
    List<int[]> split = new ArrayList<>();
    boolean any = false;
    int from = 0;
    for (int i = 0; i <= pattern.length(); i++) {
      if (i == pattern.length() || pattern.charAt(i) == '%') {
        String piece = pattern.substring(from, i);
        any |= piece.indexOf('_') >= 0;
        split.add(piece(piece));
        from = i + 1;
      }
    }
    this.pieces = split.toArray(int[][]::new);
    this.hasAny = any;
  }

  private static int[] piece(String text) {
    List<Integer> units = new ArrayList<>();
    int from = 0;
    for (int i = 0; i <= text.length(); i++) {
      if (i == text.length() || text.charAt(i) == '_') {
        for (byte b : text.substring(from, i).getBytes(StandardCharsets.UTF_8)) {
          units.add(b & 0xff);
        }
        if (i < text.length()) {
          units.add(ANY);
        }
        from = i + 1;
      }
    }
    return units.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * Whether the text in {@code utf8} matches; null when it has a non-ASCII byte and a {@code _}.
   */
  Boolean matches(ByteSlice utf8) {
    byte[] bytes = utf8.bytes();
    int start = utf8.offset();
    int end = start + utf8.length();
    if (hasAny) {
      for (int i = start; i < end; i++) {
        if (bytes[i] < 0) {
          return null;
        }
      }
    }
    int[] first = pieces[0];
    if (pieces.length == 1) {
      return end - start == first.length && at(first, bytes, start);
    }
    int[] last = pieces[pieces.length - 1];
    if (end - start < first.length + last.length
        || !at(first, bytes, start)
        || !at(last, bytes, end - last.length)) {
      return false;
    }
    int from = start + first.length;
    int to = end - last.length;
    for (int k = 1; k < pieces.length - 1; k++) {
      int[] piece = pieces[k];
      int found = -1;
      for (int i = from; i + piece.length <= to; i++) {
        if (at(piece, bytes, i)) {
          found = i;
          break;
        }
      }
      if (found < 0) {
        return false;
      }
      from = found + piece.length;
    }
    return true;
  }

  private static boolean at(int[] piece, byte[] bytes, int at) {
    for (int i = 0; i < piece.length; i++) {
      if (piece[i] != ANY && piece[i] != (bytes[at + i] & 0xff)) {
        return false;
      }
    }
    return true;
  }
}
