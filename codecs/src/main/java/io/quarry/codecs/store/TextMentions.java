package io.quarry.codecs.store;

/**
 * Whether an event's text may give a field by search-time extraction from the text alone (key=value
 * pairs, JSON keys, nested JSON paths, keys cleaned of other characters): only when every run of
 * letters and digits of the field's name occurs in the text, letter case aside. A text in which
 * some run is missing cannot give the field that way — what lets a block's codes say "no value" for
 * an event without the index-time field and let a search believe them without reading the text
 * ({@link BlockValueCodes#PARTIAL}). A sourcetype's own search-time extractions can name any field
 * and are the search's to check.
 */
final class TextMentions {
  private TextMentions() {}

  /** Whether {@code text} holds every run of letters and digits of {@code name}, any case. */
  static boolean mayGive(String text, String name) {
    if (text.indexOf("\\u") >= 0 && text.strip().startsWith("{")) {
      return true; // a JSON escape may spell a key's letters (JSON extraction decodes it)
    }
    int i = 0;
    while (i < name.length()) {
      if (!Character.isLetterOrDigit(name.charAt(i))) {
        i++;
        continue;
      }
      int end = i;
      while (end < name.length() && Character.isLetterOrDigit(name.charAt(end))) {
        end++;
      }
      if (!holds(text, name, i, end - i)) {
        return false;
      }
      i = end;
    }
    return true;
  }

  private static boolean holds(String text, String name, int from, int length) {
    char first = name.charAt(from);
    char upper = Character.toUpperCase(first);
    char lower = Character.toLowerCase(first);
    for (int at = 0; at + length <= text.length(); at++) {
      char c = text.charAt(at);
      // the fold regionMatches(true, ...) makes: the name's letter itself, its upper or lower case
      if ((c == first || Character.toUpperCase(c) == upper || Character.toLowerCase(c) == lower)
          && text.regionMatches(true, at, name, from, length)) {
        return true;
      }
    }
    return false;
  }
}
