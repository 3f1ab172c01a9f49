package io.quarry.server.search;

import io.quarry.server.sourcetype.SourcetypeSettings;
import java.util.List;
import java.util.Map;

/**
 * The events of the tests of counting from the index ({@code KeywordCountShortcutTest}, {@code
 * BlockIndexSearchTest}): a sourcetype {@code shop} whose {@code user} is an index-time keyword
 * only at the start of the line, 3,000 shop lines, one in five with its user found at search time
 * only, and 2,000 access logs whose paths and byte counts hold status-like tokens.
 */
final class CountingEvents {
  private CountingEvents() {}

  /** The sourcetype {@code shop}: index time finds only a user at the start of the line. */
  static Map<String, SourcetypeSettings> shopSourcetype() {
    return Map.of(
        "shop",
        new SourcetypeSettings.Builder()
            .indexExtractions(
                List.of(
                    new SourcetypeSettings.IndexExtractionSettings(
                        "regex", "^\\S+ user=(?<user>\\w+)")))
            .fields(Map.of("user", "keyword"))
            .build());
  }

  /** 3,000 shop lines, users {@code u0}…{@code u6}; every fifth user found at search time only. */
  static String shopLines() {
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 3000; i++) {
      String user = "u" + (i % 7);
      lines.append(
          i % 5 == 0
              ? "2026-01-07T10:00:00Z action=view user=" + user + "\n" // search-time value only
              : "2026-01-07T10:00:00Z user=" + user + " action=view\n");
    }
    return lines.toString();
  }

  /**
   * 2,000 access logs ({@code access_combined}: status and clientip are index-time fields, status a
   * number), one a second from 10:00; some paths and byte counts hold 404 or 500 as a token.
   */
  static String accessLines() {
    StringBuilder access = new StringBuilder();
    int[] statuses = {200, 200, 404, 500, 503, 301, 200, 404};
    for (int i = 0; i < 2000; i++) {
      access.append(
          String.format(
              "10.0.%d.%d - - [07/Jan/2026:10:%02d:%02d +0000] \"GET /p%d HTTP/1.1\" %d %d \"-\""
                  + " \"curl\"%n",
              i % 3,
              i % 11,
              i / 60 % 60,
              i % 60,
              i % 500, // some paths contain 404 or 500 as a token
              statuses[i % statuses.length],
              i % 7 == 0 ? 404 : 1000 + i)); // and some byte counts
    }
    return access.toString();
  }
}
