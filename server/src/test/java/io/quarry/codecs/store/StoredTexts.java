package io.quarry.codecs.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.util.Map;
import java.util.TreeMap;

/** The raw texts an index of a real server holds, each with how many times (a search as admin). */
final class StoredTexts {
  private StoredTexts() {}

  /** {@code index}'s events by {@code _raw}: {@code search index=<index> | stats count by _raw}. */
  static Map<String, Long> of(QuarryServer server, String password, String index) throws Exception {
    String body =
        TestServers.exportOk(server, password, "search index=" + index + " | stats count by _raw");
    ObjectMapper json = new ObjectMapper();
    Map<String, Long> counts = new TreeMap<>();
    for (String line : body.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode row = json.readTree(line).get("result");
      if (row != null && row.has("_raw")) {
        counts.put(row.get("_raw").asText(), row.get("count").asLong());
      }
    }
    return counts;
  }
}
