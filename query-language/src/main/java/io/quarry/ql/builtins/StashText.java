package io.quarry.ql.builtins;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * The text of one summary event in Splunk's stash format ({@code collect output_format=raw}): the
 * event time first as Splunk writes it ({@code 11/30/2026 15:10:28 +0000}, when {@code addtime}),
 * then the result's fields as {@code key="value"} pairs separated by {@code ", "} in the order of
 * its columns — one pair per value of a multivalue, a {@code "} or {@code \} in a value escaped
 * with {@code \} — leaving out internal fields (a name starting with {@code _}), then the marker.
 * Search time reads the pairs back as fields (the automatic {@code key=value} extraction, escaped:
 * the built-in sourcetype {@code stash} is {@code kvMode: auto_escaped}). A result's default fields
 * — {@code host}, {@code source}, {@code sourcetype}, {@code index}, {@code splunk_server}, {@code
 * linecount}, {@code eventtype}, {@code tag}, {@code timestartpos}, {@code timeendpos} — are
 * written as {@code orig_host} … (as Splunk's summary events carry them): the summary event has its
 * own, which a pair of the same name would contradict.
 */
final class StashText {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("MM/dd/yyyy HH:mm:ss Z", Locale.ROOT);

  private StashText() {}

  /** {@code micros} as the stash format's time prefix in {@code zone}. */
  static String time(long micros, ZoneId zone) {
    return TIME.format(Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L)).atZone(zone));
  }

  /**
   * The stash text of {@code page}'s row at {@code position}.
   *
   * @param time the time prefix, or null for none
   * @param info {@code info_*} pairs written after the time ({@code addinfo}), or empty
   * @param marker text appended last, or null
   */
  static String of(Page page, int position, String time, List<String> info, String marker) {
    StringBuilder text = new StringBuilder();
    if (time != null) {
      text.append(time);
    }
    for (String pair : info) {
      separate(text).append(pair);
    }
    for (int c = 0; c < page.schema().size(); c++) {
      String name = page.schema().column(c).name();
      if (name.startsWith("_")) {
        continue;
      }
      Block block = page.block(c);
      if (block.isNull(position)) {
        continue;
      }
      String key = pairName(name);
      for (Object value : Cells.values(block, position)) {
        pair(separate(text), key, Cells.text(value));
      }
    }
    if (marker != null && !marker.isEmpty()) {
      separate(text).append(marker);
    }
    return text.toString();
  }

  /** The key a result's field {@code name} is written under: the event's own fields renamed. */
  static String pairName(String name) {
    return switch (name) {
      case "host",
          "source",
          "sourcetype",
          "index",
          "splunk_server",
          "linecount",
          "eventtype",
          "tag",
          "timestartpos",
          "timeendpos" ->
          "orig_" + name;
      default -> name;
    };
  }

  /** {@code name="value"} as a stash pair. */
  static String pair(String name, String value) {
    return pair(new StringBuilder(), name, value).toString();
  }

  private static StringBuilder pair(StringBuilder text, String name, String value) {
    text.append(name).append("=\"");
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        text.append('\\');
      }
      text.append(c);
    }
    return text.append('"');
  }

  private static StringBuilder separate(StringBuilder text) {
    return text.isEmpty() ? text : text.append(", ");
  }
}
