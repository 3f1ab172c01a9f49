package io.quarry.server.search;

import java.util.List;
import java.util.Map;

/**
 * The HEC envelopes of the access-log events that the layout tests over index-time fields send
 * ({@code ErrorsTopClientsTest}, {@code StatusRangeEdgesTest}; {@link LayoutEvents}): event {@code
 * i} at {@link LayoutEvents#START} {@code + 7i} seconds, host {@code web}, sourcetype {@code
 * access}, text {@code request <i>}, with index-time fields each holding no value (left out), one
 * (a string) or several (an array of strings).
 */
final class AccessEnvelopes {
  private AccessEnvelopes() {}

  /**
   * The envelope of event {@code i} for {@code index} with {@code fields} (name to values, in the
   * map's order), ending with a newline.
   */
  static String of(String index, int i, Map<String, List<String>> fields) {
    StringBuilder json = new StringBuilder();
    fields.forEach(
        (name, values) -> {
          if (values.isEmpty()) {
            return;
          }
          json.append(json.isEmpty() ? "" : ",").append('"').append(name).append("\":");
          json.append(
              values.size() == 1
                  ? "\"" + values.get(0) + "\""
                  : "[\"" + String.join("\",\"", values) + "\"]");
        });
    return String.format(
        "{\"time\":%d,\"host\":\"web\",\"sourcetype\":\"access\",\"index\":\"%s\","
            + "\"event\":\"request %d\",\"fields\":{%s}}%n",
        LayoutEvents.START + i * 7L, index, i, json);
  }
}
