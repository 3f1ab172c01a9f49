package io.quarry.codecs.store;

/**
 * Whether an event's text may give a field by search-time extraction from the text alone (key=value
 * pairs, JSON keys, nested JSON paths): only when every run of ASCII letters and digits of the
 * field's name occurs in the text, ASCII letter case aside. Key=value keys are ASCII and taken as
 * written, JSON keys as written once their escapes are decoded, so a text in which some run is
 * missing cannot give the field that way — what lets a block's codes say "no value" for an event
 * without the index-time field and let a search believe them without reading the text ({@link
 * BlockValueCodes#PARTIAL}). Conservative where that reasoning is less plain: a name with a
 * non-ASCII character, and a JSON object text holding a backslash-u escape (which may spell a key's
 * letters), may always give it (review-d, session 34). A sourcetype's own search-time extractions
 * can name any field and are the search's to check.
 */
final class TextMentions {
  private TextMentions() {}

  /**
   * Whether {@code text} may give field {@code name}: it holds every run of ASCII letters and
   * digits of the name (any ASCII case), or the name is not ASCII, or the text is a JSON object
   * with an escape.
   */
  static boolean mayGive(String text, String name) {
    for (int i = 0; i < name.length(); i++) {
      if (name.charAt(i) >= 0x80) {
        return true; // no codes for non-ASCII names: their folds and spellings are not reasoned out
      }
    }
    if (text.indexOf("\\u") >= 0 && text.strip().startsWith("{")) {
      return true; // a JSON escape may spell a key's letters (JSON extraction decodes it)
    }
    int i = 0;
    while (i < name.length()) {
      if (!isWordChar(name.charAt(i))) {
        i++;
        continue;
      }
      int end = i;
      while (end < name.length() && isWordChar(name.charAt(end))) {
        end++;
      }
      if (!holds(text, name, i, end - i)) {
        return false;
      }
      i = end;
    }
    return true;
  }

  private static boolean isWordChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }

  /** Whether {@code text} holds {@code name[from, from + length)}, ASCII case aside. */
  private static boolean holds(String text, String name, int from, int length) {
    char lower = lowerAscii(name.charAt(from));
    for (int at = 0; at + length <= text.length(); at++) {
      if (lowerAscii(text.charAt(at)) == lower && sameAscii(text, at, name, from, length)) {
        return true;
      }
    }
    return false;
  }

  private static boolean sameAscii(String text, int at, String name, int from, int length) {
    for (int k = 1; k < length; k++) {
      if (lowerAscii(text.charAt(at + k)) != lowerAscii(name.charAt(from + k))) {
        return false;
      }
    }
    return true;
  }

  private static char lowerAscii(char c) {
    return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
  }
}
