package io.quarry.ql.exec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Automatic {@code key=value} extraction: {@code key=value} and {@code key="quoted value"} pairs,
 * keys starting with a letter or {@code _}; a key seen twice gets both values. Two readings of a
 * quoted value, as Splunk's {@code KV_MODE} has them: plain ({@code auto}: the first {@code "}
 * closes it, a backslash is an ordinary character) and escaped ({@code auto_escaped}: {@code \"}
 * and {@code \\} are a quote and a backslash inside it). Used at search time (after the
 * sourcetype's and JSON extraction, as the sourcetype's {@code kvMode} says), at index time ({@code
 * type: kv}, as that {@code kvMode} says too) and by {@code extract} without delimiters (escaped;
 * here, below the server, for that built-in command).
 */
public final class KeyValues {
  private static final int MAX_KEY_LENGTH = 100;

  private KeyValues() {}

  /**
   * The pairs of {@code raw}, in order. One pass over the text looking for {@code =}: the key is
   * the longest run of {@code [A-Za-z0-9_.-]} before it (at most 100 characters, starting with a
   * letter or {@code _}); the value is a quoted string or a run up to whitespace, {@code , ; &} or
   * a quote. Scanning resumes after each value, so {@code a=b=c} is {@code a} = {@code b=c}. (Was a
   * regex with a look-behind: ~6× slower on access-log lines, where it tried every position.)
   */
  public static Map<String, List<String>> extract(String raw, boolean escapes) {
    Map<String, List<String>> fields = new LinkedHashMap<>();
    scan(
        raw,
        null,
        escapes,
        (key, value) -> fields.computeIfAbsent(key, k -> new ArrayList<>()).add(value));
    return fields;
  }

  /** Every pair of {@code raw} handed to {@code pairs} in the order of the text. */
  public static void forEachPair(String raw, boolean escapes, BiConsumer<String, String> pairs) {
    scan(raw, null, escapes, pairs);
  }

  /**
   * The values of one key, as {@code extract(raw).get(key)} would give them (empty when absent),
   * without cutting out the other pairs: what a search asking for one field needs.
   */
  public static List<String> values(String raw, String key, boolean escapes) {
    List<String> values = new ArrayList<>(1);
    scan(raw, key, escapes, (k, value) -> values.add(value));
    return values;
  }

  /**
   * Every pair in order, or only those of {@code onlyKey} when it is not null; {@code escapes}:
   * whether quoted values are read escaped.
   */
  private static void scan(
      String raw, String onlyKey, boolean escapes, BiConsumer<String, String> pairs) {
    int length = raw.length();
    int from = 0;
    int equals;
    while (from < length && (equals = raw.indexOf('=', from)) >= 0) {
      int keyStart = equals;
      while (keyStart > 0 && isKeyChar(raw.charAt(keyStart - 1))) {
        keyStart--;
      }
      int keyLength = equals - keyStart;
      if (keyLength == 0 || keyLength > MAX_KEY_LENGTH || !isKeyStart(raw.charAt(keyStart))) {
        from = equals + 1;
        continue;
      }
      int valueStart = equals + 1;
      int valueEnd = -1; // exclusive; -1: no value here
      int end = valueStart;
      boolean escaped = false;
      if (valueStart < length && raw.charAt(valueStart) == '"') {
        int close = escapes ? closingQuote(raw, valueStart + 1) : -1;
        escaped = close >= 0 && raw.indexOf('\\', valueStart + 1, close) >= 0;
        if (close < 0) { // plain, or an unmatched escape (a path ending in \): the first quote
          close = raw.indexOf('"', valueStart + 1);
        }
        if (close >= 0) {
          valueStart++;
          valueEnd = close;
          end = close + 1;
        }
      } else {
        while (end < length && isValueChar(raw.charAt(end))) {
          end++;
        }
        if (end > valueStart) {
          valueEnd = end;
        }
      }
      if (valueEnd < 0) {
        from = equals + 1;
        continue;
      }
      if (onlyKey == null) {
        pairs.accept(raw.substring(keyStart, equals), value(raw, valueStart, valueEnd, escaped));
      } else if (keyLength == onlyKey.length() && raw.startsWith(onlyKey, keyStart)) {
        pairs.accept(onlyKey, value(raw, valueStart, valueEnd, escaped));
      }
      from = end;
    }
  }

  /**
   * The quote closing a quoted value whose text starts at {@code from}: the first {@code "} not
   * escaped by a backslash ({@code \"} and {@code \\} are a quote and a backslash inside the value,
   * as {@code collect} writes them and Splunk reads them back); -1 when there is none.
   */
  private static int closingQuote(String raw, int from) {
    for (int i = from; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '\\'
          && i + 1 < raw.length()
          && (raw.charAt(i + 1) == '"' || raw.charAt(i + 1) == '\\')) {
        i++;
      } else if (c == '"') {
        return i;
      }
    }
    return -1;
  }

  /** The value between {@code start} and {@code end}, its {@code \"} and {@code \\} undone. */
  private static String value(String raw, int start, int end, boolean escaped) {
    if (!escaped) {
      return raw.substring(start, end);
    }
    StringBuilder value = new StringBuilder(end - start);
    for (int i = start; i < end; i++) {
      char c = raw.charAt(i);
      if (c == '\\' && i + 1 < end && (raw.charAt(i + 1) == '"' || raw.charAt(i + 1) == '\\')) {
        i++;
        c = raw.charAt(i);
      }
      value.append(c);
    }
    return value.toString();
  }

  private static boolean isKeyStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }

  private static boolean isKeyChar(char c) {
    return isKeyStart(c) || (c >= '0' && c <= '9') || c == '.' || c == '-';
  }

  private static boolean isValueChar(char c) {
    return switch (c) {
      case ' ', '\t', '\n', '\u000B', '\f', '\r', ',', ';', '&', '"' -> false;
      default -> true;
    };
  }
}
