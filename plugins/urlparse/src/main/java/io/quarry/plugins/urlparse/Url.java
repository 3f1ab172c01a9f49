package io.quarry.plugins.urlparse;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts of one URL, split by hand (no exceptions, no regex): {@code
 * scheme://userinfo@host:port/path?query#fragment}, where everything but the path may be missing,
 * and a relative reference ({@code /a/b?c=d}) has only path, query and fragment. A part that is
 * absent is null.
 */
record Url(String scheme, String host, Long port, String path, String query, String fragment) {

  static Url parse(String text) {
    int length = text.length();
    int fragmentAt = text.indexOf('#');
    int end = fragmentAt < 0 ? length : fragmentAt;
    String fragment = fragmentAt < 0 ? null : text.substring(fragmentAt + 1);
    int queryAt = text.indexOf('?');
    if (queryAt > end) {
      queryAt = -1;
    }
    String query = queryAt < 0 ? null : text.substring(queryAt + 1, end);
    int beforeQuery = queryAt < 0 ? end : queryAt;

    String scheme = null;
    int position = 0;
    int colon = schemeEnd(text, beforeQuery);
    if (colon > 0 && text.startsWith("//", colon + 1)) {
      scheme = text.substring(0, colon).toLowerCase(java.util.Locale.ROOT);
      position = colon + 3;
    } else if (text.startsWith("//")) {
      position = 2;
    }
    String host = null;
    Long port = null;
    if (position > 0) {
      int authorityEnd = text.indexOf('/', position);
      if (authorityEnd < 0 || authorityEnd > beforeQuery) {
        authorityEnd = beforeQuery;
      }
      int hostStart = text.lastIndexOf('@', authorityEnd - 1);
      hostStart = hostStart >= position ? hostStart + 1 : position;
      int portColon = -1;
      if (hostStart < authorityEnd && text.charAt(hostStart) == '[') {
        int close = text.indexOf(']', hostStart);
        if (close > 0 && close < authorityEnd) {
          host = text.substring(hostStart + 1, close);
          portColon = close + 1 < authorityEnd && text.charAt(close + 1) == ':' ? close + 1 : -1;
        }
      }
      if (host == null) {
        portColon = text.lastIndexOf(':', authorityEnd - 1);
        if (portColon < hostStart) {
          portColon = -1;
        }
        host = text.substring(hostStart, portColon < 0 ? authorityEnd : portColon);
      }
      if (portColon >= 0) {
        port = digits(text, portColon + 1, authorityEnd);
      }
      host = host.isEmpty() ? null : host.toLowerCase(java.util.Locale.ROOT);
      position = authorityEnd;
    }
    String path = position < beforeQuery ? text.substring(position, beforeQuery) : null;
    return new Url(scheme, host, port, path, query, fragment);
  }

  /** The colon ending a scheme ({@code [A-Za-z][A-Za-z0-9+.-]*:}), or -1. */
  private static int schemeEnd(String text, int limit) {
    for (int i = 0; i < limit; i++) {
      char c = text.charAt(i);
      if (c == ':') {
        return i;
      }
      boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      boolean other = (c >= '0' && c <= '9') || c == '+' || c == '.' || c == '-';
      if (!(letter || (i > 0 && other))) {
        return -1;
      }
    }
    return -1;
  }

  private static Long digits(String text, int start, int end) {
    if (start >= end || end - start > 5) {
      return null;
    }
    long value = 0;
    for (int i = start; i < end; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return null;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  /** One {@code name=value} of a query string, both URL-decoded ({@code +} is a space). */
  record Parameter(String name, String value) {}

  /** The parameters of a query string, in order; a name without {@code =} has an empty value. */
  static List<Parameter> parameters(String query) {
    List<Parameter> parameters = new ArrayList<>();
    if (query == null || query.isEmpty()) {
      return parameters;
    }
    int start = 0;
    while (start <= query.length()) {
      int amp = query.indexOf('&', start);
      int end = amp < 0 ? query.length() : amp;
      if (end > start) {
        int eq = query.indexOf('=', start);
        if (eq < 0 || eq > end) {
          parameters.add(new Parameter(decode(query.substring(start, end)), ""));
        } else if (eq > start) {
          parameters.add(
              new Parameter(
                  decode(query.substring(start, eq)), decode(query.substring(eq + 1, end))));
        }
      }
      if (amp < 0) {
        break;
      }
      start = amp + 1;
    }
    return parameters;
  }

  private static String decode(String text) {
    if (text.indexOf('%') < 0 && text.indexOf('+') < 0) {
      return text;
    }
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return text; // a malformed escape: keep the text as it is
    }
  }
}
