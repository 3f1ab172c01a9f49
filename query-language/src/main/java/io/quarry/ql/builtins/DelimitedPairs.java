package io.quarry.ql.builtins;

import java.util.function.BiConsumer;

/**
 * Key/value pairs of a text cut by given delimiters ({@code extract pairdelim=… kvdelim=…}): the
 * text splits into pairs at any of the pair delimiters outside double quotes; a pair splits into
 * key and value at its first key delimiter; both are trimmed and lose surrounding double quotes. A
 * pair without a key delimiter, with an empty key, or whose value holds another key delimiter
 * (Splunk: "that value is not extracted") gives nothing.
 */
final class DelimitedPairs {
  private DelimitedPairs() {}

  /** Every pair of {@code text} handed to {@code pairs} in the order of the text. */
  static void forEachPair(
      String text, String pairDelims, String kvDelims, BiConsumer<String, String> pairs) {
    int start = 0;
    boolean quoted = false;
    for (int i = 0; i <= text.length(); i++) {
      char c = i < text.length() ? text.charAt(i) : 0;
      if (i < text.length() && c == '"') {
        quoted = !quoted;
      } else if (i == text.length() || (!quoted && pairDelims.indexOf(c) >= 0)) {
        pair(text.substring(start, i), kvDelims, pairs);
        start = i + 1;
      }
    }
  }

  private static void pair(String pair, String kvDelims, BiConsumer<String, String> pairs) {
    int at = -1;
    for (int i = 0; i < pair.length() && at < 0; i++) {
      if (kvDelims.indexOf(pair.charAt(i)) >= 0) {
        at = i;
      }
    }
    if (at < 0) {
      return;
    }
    String key = unquote(pair.substring(0, at).trim());
    String value = unquote(pair.substring(at + 1).trim());
    for (int i = 0; i < value.length(); i++) {
      if (kvDelims.indexOf(value.charAt(i)) >= 0) {
        return;
      }
    }
    if (!key.isEmpty()) {
      pairs.accept(key, value);
    }
  }

  private static String unquote(String text) {
    return text.length() >= 2 && text.startsWith("\"") && text.endsWith("\"")
        ? text.substring(1, text.length() - 1)
        : text;
  }

  /**
   * A key as Splunk's {@code CLEAN_KEYS} leaves it: every character but a letter, digit or {@code
   * _} an underscore, then the leading underscores and digits dropped ({@code ""}: no field).
   */
  static String clean(String key) {
    StringBuilder cleaned = new StringBuilder(key.length());
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      boolean word =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
      cleaned.append(word ? c : '_');
    }
    int from = 0;
    while (from < cleaned.length()
        && (cleaned.charAt(from) == '_' || Character.isDigit(cleaned.charAt(from)))) {
      from++;
    }
    return cleaned.substring(from);
  }
}
