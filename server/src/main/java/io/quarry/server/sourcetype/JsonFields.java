package io.quarry.server.sourcetype;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fields of a JSON object event, Splunk's way: nested names joined with {@code .}, array
 * elements under {@code name{}}, integers as Long, other numbers as Double, the rest as text; nulls
 * left out. Used at search time (automatic JSON extraction) and at index time ({@code type: json}).
 */
public final class JsonFields {
  private static final ObjectMapper JSON = new ObjectMapper();

  private JsonFields() {}

  /** The fields of {@code raw}, or an empty map when it is not a JSON object. */
  public static Map<String, List<Object>> flatten(String raw) {
    String trimmed = raw.strip();
    if (!trimmed.startsWith("{") || !trimmed.endsWith("}")) {
      return Map.of();
    }
    Map<String, List<Object>> fields = new LinkedHashMap<>();
    try {
      flatten("", JSON.readTree(trimmed), fields);
    } catch (JsonProcessingException notJson) {
      return Map.of();
    }
    return fields;
  }

  private static void flatten(String prefix, JsonNode node, Map<String, List<Object>> into) {
    if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        flatten(
            prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey(),
            field.getValue(),
            into);
      }
    } else if (node.isArray()) {
      for (JsonNode item : node) {
        flatten(prefix + "{}", item, into);
      }
    } else if (!node.isNull() && !prefix.isEmpty()) {
      Object value =
          node.isIntegralNumber() && node.canConvertToLong()
              ? (Object) node.longValue()
              : node.isNumber() ? (Object) node.doubleValue() : node.asText();
      into.computeIfAbsent(prefix, k -> new ArrayList<>()).add(value);
    }
  }
}
