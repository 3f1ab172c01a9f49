package io.quarry.server.sourcetype;

/**
 * {@link io.quarry.ql.exec.KeyValues#values} over ASCII bytes as they lie in a decoded journal
 * block, read plain as {@code kvMode: auto} reads them: the same pairs, found the same way (the key
 * is the longest run of {@code [A-Za-z0-9_.-]} before an {@code =}, starting with a letter or
 * {@code _}; the value a quoted string up to the next quote, or a run up to whitespace, {@code , ;
 * &} or a quote; scanning resumes after each value), but each value reported as a range of the
 * bytes instead of a {@code String}, so a {@code stats … by JSESSIONID} copies the value's bytes
 * into a block and makes no object per event. A backslash is an ordinary byte (the escaped reading
 * of {@code auto_escaped} is {@link io.quarry.ql.exec.KeyValues}' alone).
 */
public final class KeyValueBytes {
  private static final int MAX_KEY_LENGTH = 100;

  /** Receives the range {@code [start, end)} of one value. */
  @FunctionalInterface
  public interface Values {
    void value(int start, int end);
  }

  private KeyValueBytes() {}

  /**
   * Reports every value of {@code key} (ASCII) in {@code bytes[offset, offset + length)} (ASCII),
   * in order; returns how many.
   */
  public static int values(byte[] bytes, int offset, int length, byte[] key, Values into) {
    int limit = offset + length;
    int from = offset;
    int found = 0;
    while (from < limit) {
      int equals = indexOf(bytes, (byte) '=', from, limit);
      if (equals < 0) {
        break;
      }
      int keyStart = equals;
      while (keyStart > offset && isKeyChar(bytes[keyStart - 1])) {
        keyStart--;
      }
      int keyLength = equals - keyStart;
      if (keyLength == 0 || keyLength > MAX_KEY_LENGTH || !isKeyStart(bytes[keyStart])) {
        from = equals + 1;
        continue;
      }
      int valueStart = equals + 1;
      int valueEnd = -1; // exclusive; -1: no value here
      int end = valueStart;
      if (valueStart < limit && bytes[valueStart] == '"') {
        int close = indexOf(bytes, (byte) '"', valueStart + 1, limit);
        if (close >= 0) {
          valueStart++;
          valueEnd = close;
          end = close + 1;
        }
      } else {
        end = unquotedEnd(bytes, valueStart, limit);
        if (end > valueStart) {
          valueEnd = end;
        }
      }
      if (valueEnd < 0) {
        from = equals + 1;
        continue;
      }
      if (keyLength == key.length && regionEquals(bytes, keyStart, key)) {
        into.value(valueStart, valueEnd);
        found++;
      }
      from = end;
    }
    return found;
  }

  /**
   * Whether the scan of pairs reaches a key starting at {@code keyStart}, preceded by no key
   * character and by no quoted value ({@code ="}) in the text: a key is skipped only inside an
   * unquoted value, a run of value characters after an {@code =}, so a non-value character (or the
   * text's start) met walking back before any {@code =} proves it reached; an {@code =} met leaves
   * it undecided (false).
   */
  static boolean reachedAt(byte[] bytes, int offset, int keyStart) {
    for (int i = keyStart - 1; i >= offset; i--) {
      byte b = bytes[i];
      if (b == '=') {
        return false;
      }
      if (!isValueChar(b)) {
        return true;
      }
    }
    return true;
  }

  /** Where the unquoted value starting at {@code from} ends: its run of value characters. */
  static int unquotedEnd(byte[] bytes, int from, int limit) {
    int end = from;
    while (end < limit && isValueChar(bytes[end])) {
      end++;
    }
    return end;
  }

  /** Whether the scan of pairs can find {@code key} at all: key characters, not too long. */
  public static boolean isKey(byte[] key) {
    if (key.length == 0 || key.length > MAX_KEY_LENGTH || !isKeyStart(key[0])) {
      return false;
    }
    for (byte b : key) {
      if (!isKeyChar(b)) {
        return false;
      }
    }
    return true;
  }

  private static final java.lang.invoke.VarHandle LONGS =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
          long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  private static final long EQUALS_SIGNS = '=' * ONES;

  /**
   * The high bit of each byte of {@code bytes[at, at + 8)} that may be an {@code =}: every one that
   * is, the lowest exactly; one above a real {@code =} may be marked by the borrow (check it).
   */
  static long equalsSigns(byte[] bytes, int at) {
    long word = (long) LONGS.get(bytes, at) ^ EQUALS_SIGNS;
    return (word - ONES) & ~word & HIGHS;
  }

  /**
   * The first {@code b} in {@code bytes[from, limit)}, or -1: eight bytes at a time (a word holds
   * {@code b} where {@code word ^ b*ONES} has a zero byte), which matters for an {@code =} scan
   * over every event of a search.
   */
  public static int indexOf(byte[] bytes, byte b, int from, int limit) {
    long pattern = (b & 0xFFL) * ONES;
    int i = from;
    for (; i + Long.BYTES <= limit; i += Long.BYTES) {
      long word = (long) LONGS.get(bytes, i) ^ pattern;
      long found = (word - ONES) & ~word & HIGHS;
      if (found != 0) {
        return i + (Long.numberOfTrailingZeros(found) >>> 3);
      }
    }
    for (; i < limit; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    return -1;
  }

  static boolean regionEquals(byte[] bytes, int at, byte[] key) {
    return java.util.Arrays.equals(bytes, at, at + key.length, key, 0, key.length);
  }

  private static final byte KEY_START = 1;
  private static final byte KEY = 2;
  private static final byte VALUE = 4;

  /**
   * Each byte's classes, looked up in one load instead of a chain of comparisons per byte (the key
   * and value runs are most of what the scan reads).
   */
  private static final byte[] CLASSES = new byte[256];

  static {
    for (int c = 0; c < 256; c++) {
      boolean keyStart = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
      boolean key = keyStart || (c >= '0' && c <= '9') || c == '.' || c == '-';
      boolean value =
          switch (c) {
            case ' ', '\t', '\n', '\u000B', '\f', '\r', ',', ';', '&', '"' -> false;
            default -> true;
          };
      CLASSES[c] = (byte) ((keyStart ? KEY_START : 0) | (key ? KEY : 0) | (value ? VALUE : 0));
    }
  }

  private static boolean isKeyStart(byte c) {
    return (CLASSES[c & 0xFF] & KEY_START) != 0;
  }

  static boolean isKeyChar(byte c) {
    return (CLASSES[c & 0xFF] & KEY) != 0;
  }

  static boolean isValueChar(byte c) {
    return (CLASSES[c & 0xFF] & VALUE) != 0;
  }
}
