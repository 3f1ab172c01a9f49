package io.quarry.server.sourcetype;

import io.quarry.codecs.store.AsciiText;
import io.quarry.codecs.store.SmallFieldMap;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * A hand-written parser for Apache access logs (common and combined), the fast path of {@link
 * #REGEX}: one pass over the line, no backtracking, about ten times cheaper than the regular
 * expression. It answers only when the line has the exact shape it knows and otherwise returns null
 * so the caller runs the regex, which stays the definition: where this parser answers, its fields
 * equal the regex's ({@code AccessLogParserTest} checks that over real and mutated lines).
 */
final class AccessLogParser {
  /**
   * The definition: Splunk's field names for the Apache combined and common formats (the built-in
   * {@code access_combined} and {@code access_common} search extraction). A sourcetype whose only
   * search extraction is exactly this expression uses the parser.
   */
  static final String REGEX =
      "^(?<clientip>\\S+) (?<ident>\\S+) (?<user>\\S+) \\[(?<reqtime>[^\\]]+)\\]"
          + " \"(?<method>[A-Z]+) (?<uri>(?<uripath>[^\\s?\"]*)(?:\\?(?<uriquery>[^\\s\"]*))?)"
          + "(?: (?<version>[^\"]*))?\" (?<status>\\d{3}) (?<bytes>\\d+|-)"
          + "(?: \"(?<referer>[^\"]*)\" \"(?<useragent>[^\"]*)\")?";

  /**
   * The built-in access-log index-time extraction: the fields most searches filter and group on.
   * Where {@link #parse} answers, this expression's groups equal its fields of the same names
   * ({@code AccessLogParserTest}), so {@link IndexExtraction.AccessLog} uses the parser for it.
   */
  static final String INDEX_REGEX =
      "^(?<clientip>\\S+) \\S+ \\S+ \\[[^\\]]+\\] \"(?<method>[A-Z]+) (?<uri_path>[^\\s?\"]*)[^\"]*\""
          + " (?<status>\\d{3}) ";

  /** The fields {@link #INDEX_REGEX} extracts. */
  static final List<String> INDEX_FIELDS = List.of("clientip", "method", "uri_path", "status");

  /** {@link #INDEX_FIELDS}' positions in {@link AccessLogFields#NAMES}. */
  private static final int[] INDEX_FIELD_NUMBERS =
      INDEX_FIELDS.stream().mapToInt(name -> AccessLogFields.NAMES.indexOf(name)).toArray();

  // positions in AccessLogFields.NAMES of the two index fields whose values are kept
  // (AccessLogValues)
  private static final int METHOD = AccessLogFields.NAMES.indexOf("method");
  private static final int STATUS = AccessLogFields.NAMES.indexOf("status");

  // the line: ASCII bytes[offset, offset + length) when bytes is set, else line's characters
  private final CharSequence line;
  private final byte[] bytes;
  private final int offset;
  private final int length;
  private final int[] bounds;
  private final boolean indexPrefix;
  private int at;

  private AccessLogParser(CharSequence line, int[] bounds, boolean indexPrefix) {
    if (line instanceof AsciiText ascii) { // the journal's bytes in place: read them as bytes
      this.line = null;
      this.bytes = ascii.array();
      this.offset = ascii.offset();
    } else {
      this.line = line;
      this.bytes = null;
      this.offset = 0;
    }
    this.length = line.length();
    this.bounds = bounds;
    this.indexPrefix = indexPrefix;
  }

  private AccessLogParser(byte[] ascii, int offset, int length, int[] bounds, boolean indexPrefix) {
    this.line = null;
    this.bytes = ascii;
    this.offset = offset;
    this.length = length;
    this.bounds = bounds;
    this.indexPrefix = indexPrefix;
  }

  /** The line's character {@code i}: a byte of an ASCII line read straight from its array. */
  private char charAt(int i) {
    return bytes != null ? (char) bytes[offset + i] : line.charAt(i);
  }

  /** The line's characters {@code [start, end)} as a string. */
  private String text(int start, int end) {
    return bytes != null
        ? new String(bytes, offset + start, end - start, StandardCharsets.ISO_8859_1)
        : line.subSequence(start, end).toString();
  }

  /**
   * The fields of the line under Splunk's names, in the regex's group order, or null when the line
   * is not a plain access-log line (the regex decides those).
   */
  static Map<String, List<Object>> parse(String line) {
    int[] bounds = new int[2 * AccessLogFields.NAMES.size()];
    return new AccessLogParser(line, bounds, false).parse()
        ? new AccessLogFields(line, bounds)
        : null;
  }

  /**
   * {@link #INDEX_REGEX}'s fields of the line, put into {@code into} where absent; false when the
   * parser does not know the line's first part (the regex decides those). The line is read only up
   * to the space after the status, as far as the expression reads it: the rest of a combined line
   * (bytes, referer, user agent) is not looked at. Where the whole-line {@link #parse} answers,
   * this gives its values; it also answers for lines whose later part that parse would refuse, with
   * the expression's values, since up to the status both check the same shape ({@code
   * AccessLogParserTest}).
   */
  static boolean indexFields(String line, Map<String, List<String>> into) {
    Map<String, List<String>> fields = indexFields(line);
    if (fields == null) {
      return false;
    }
    fields.forEach(into::putIfAbsent);
    return true;
  }

  /**
   * One thread's bounds for {@link #indexFields()}, which makes its values before it returns: the
   * ingest parses every access-log line, and an array per line was ~6% of what it allocated.
   */
  private static final ThreadLocal<int[]> INDEX_BOUNDS =
      ThreadLocal.withInitial(() -> new int[2 * AccessLogFields.NAMES.size()]);

  /**
   * {@link #INDEX_REGEX}'s fields of the line as the event's own immutable map ({@link
   * SmallFieldMap}, in {@link #INDEX_FIELDS} order), or null when the parser does not know the
   * line's first part; as {@link #indexFields(String, Map)} but made straight from the line's
   * bounds, without a map to fill and copy.
   */
  static Map<String, List<String>> indexFields(String line) {
    return new AccessLogParser(line, INDEX_BOUNDS.get(), true).indexFields();
  }

  /**
   * {@link #indexFields(String)} of a line given as its bytes {@code ascii[offset, offset +
   * length)}, every one ASCII (the breaker's range of the body): read byte by byte, the values made
   * straight from the bytes.
   */
  static Map<String, List<String>> indexFields(byte[] ascii, int offset, int length) {
    return indexFields(ascii, offset, length, INDEX_BOUNDS.get());
  }

  /** {@link #indexFields(byte[], int, int)} with the caller's bounds ({@link ParseScratch}). */
  static Map<String, List<String>> indexFields(byte[] ascii, int offset, int length, int[] bounds) {
    return new AccessLogParser(ascii, offset, length, bounds, true).indexFields();
  }

  @SuppressWarnings("unchecked")
  private Map<String, List<String>> indexFields() {
    if (!parse()) {
      return null;
    }
    Map.Entry<String, List<String>>[] fields = new Map.Entry[INDEX_FIELD_NUMBERS.length];
    for (int i = 0; i < INDEX_FIELD_NUMBERS.length; i++) {
      int field = INDEX_FIELD_NUMBERS[i];
      // every index field is set when the prefix parses (uri_path possibly empty, as the regex's)
      int start = bounds[2 * field];
      int end = bounds[2 * field + 1];
      List<String> value =
          field == STATUS
              ? AccessLogValues.status(charAt(start), charAt(start + 1), charAt(start + 2))
              : field == METHOD ? method(start, end) : List.of(text(start, end));
      fields[i] = Map.entry(INDEX_FIELDS.get(i), value);
    }
    return SmallFieldMap.ofEntries(fields);
  }

  /**
   * The method {@code [start, end)}: a kept value when it is a common one ({@link
   * AccessLogValues}).
   */
  private List<String> method(int start, int end) {
    for (int m = 0; m < AccessLogValues.methods(); m++) {
      String name = AccessLogValues.methodName(m);
      if (name.length() == end - start && sameAs(name, start)) {
        return AccessLogValues.method(m);
      }
    }
    return List.of(text(start, end));
  }

  /** Whether the line holds {@code text} from {@code start}. */
  private boolean sameAs(String text, int start) {
    for (int i = 0; i < text.length(); i++) {
      if (charAt(start + i) != text.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Parses a line (a {@code String}, or a view of bytes such as the journal's ASCII text) into
   * {@code bounds}: each field's start and end, two ints per field in {@link AccessLogFields#NAMES}
   * order, -1 when absent; false when the line is not a plain access-log line (nothing to rely on
   * in bounds).
   */
  static boolean bounds(CharSequence line, int[] bounds) {
    return new AccessLogParser(line, bounds, false).parse();
  }

  private void set(int field, int start, int end) {
    bounds[2 * field] = start;
    bounds[2 * field + 1] = end;
  }

  private boolean parse() {
    java.util.Arrays.fill(bounds, -1);
    if (!token(0) || !token(1) || !token(2) || !skip('[')) {
      return false;
    }
    int close = indexOf(']', at);
    if (close <= at) {
      return false;
    }
    set(3, at, close);
    at = close + 1;
    if (!skip(' ') || !skip('"')) {
      return false;
    }
    int methodStart = at;
    while (at < length && charAt(at) >= 'A' && charAt(at) <= 'Z') {
      at++;
    }
    set(4, methodStart, at);
    if (at == methodStart || !skip(' ')) {
      return false;
    }
    int uriStart = at;
    while (at < length && !isSpaceClass(charAt(at)) && charAt(at) != '?' && charAt(at) != '"') {
      at++;
    }
    set(6, uriStart, at);
    if (at < length && charAt(at) == '?') {
      int queryStart = ++at;
      while (at < length && !isSpaceClass(charAt(at)) && charAt(at) != '"') {
        at++;
      }
      set(7, queryStart, at);
    }
    set(5, uriStart, at);
    if (at < length && charAt(at) == ' ') {
      int quote = indexOf('"', at + 1);
      if (quote < 0) {
        return false;
      }
      set(8, at + 1, quote);
      at = quote;
    }
    if (!skip('"') || !skip(' ') || at + 3 > length) {
      return false;
    }
    for (int i = at; i < at + 3; i++) {
      if (!isDigit(charAt(i))) {
        return false;
      }
    }
    set(9, at, at + 3);
    at += 3;
    if (indexPrefix) {
      return skip(' '); // INDEX_REGEX ends with the space after the status
    }
    if (!skip(' ') || at >= length) {
      return false;
    }
    int bytesStart = at;
    if (isDigit(charAt(at))) {
      while (at < length && isDigit(charAt(at))) {
        at++;
      }
    } else if (charAt(at) == '-') {
      at++;
    } else {
      return false;
    }
    set(10, bytesStart, at);
    if (startsWith(" \"", at)) {
      int refererEnd = indexOf('"', at + 2);
      if (refererEnd >= 0 && startsWith("\" \"", refererEnd)) {
        int agentEnd = indexOf('"', refererEnd + 3);
        if (agentEnd >= 0) {
          set(11, at + 2, refererEnd);
          set(12, refererEnd + 3, agentEnd);
        }
      }
    }
    return true;
  }

  /** {@code \S+} followed by one space, as field {@code field}; false when the line does not. */
  private boolean token(int field) {
    int start = at;
    while (at < length && !isSpaceClass(charAt(at))) {
      at++;
    }
    if (at == start || at >= length || charAt(at) != ' ') {
      return false;
    }
    set(field, start, at++);
    return true;
  }

  private int indexOf(char c, int from) {
    for (int i = from; i < length; i++) {
      if (charAt(i) == c) {
        return i;
      }
    }
    return -1;
  }

  private boolean startsWith(String prefix, int from) {
    if (from + prefix.length() > length) {
      return false;
    }
    for (int i = 0; i < prefix.length(); i++) {
      if (charAt(from + i) != prefix.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private boolean skip(char expected) {
    if (at < length && charAt(at) == expected) {
      at++;
      return true;
    }
    return false;
  }

  /** Java regex {@code \s}: space, tab, newline, vertical tab, form feed, carriage return. */
  private static boolean isSpaceClass(char c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
  }

  /** Java regex {@code \d} without UNICODE_CHARACTER_CLASS: ASCII digits. */
  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
