package io.quarry.server.search;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.sourcetype.Sourcetype;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Search-time field extraction from one event's {@code _raw}, in Splunk's order of precedence: the
 * sourcetype's extraction, then JSON (when the event is a JSON object), then automatic {@code
 * key=value} pairs. Each stage runs only when a field is asked for that the earlier stages did not
 * find, and at most once per event: a search for {@code status} over access logs never runs the
 * key=value scan.
 */
final class FieldExtractor {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern KEY_VALUE =
      Pattern.compile("(?<![\\w.-])([A-Za-z_][\\w.-]{0,99})=(?:\"([^\"]*)\"|([^\\s,;&\"]+))");

  private final String raw;
  private final Sourcetype sourcetype;
  private Map<String, List<Object>> bySourcetype;
  private Map<String, List<Object>> byJson;
  private Map<String, List<Object>> byKeyValue;

  FieldExtractor(String raw, String sourcetypeName) {
    this.raw = raw;
    this.sourcetype = Sourcetypes.forName(sourcetypeName);
  }

  /** The values of a field, or an empty list. */
  List<Object> values(String field) {
    if (bySourcetype == null) {
      bySourcetype = sourcetypeFields();
    }
    List<Object> values = bySourcetype.get(field);
    if (values != null) {
      return values;
    }
    if (byJson == null) {
      byJson = jsonFields();
    }
    values = byJson.get(field);
    if (values != null) {
      return values;
    }
    if (byKeyValue == null) {
      byKeyValue = keyValueFields();
    }
    return byKeyValue.getOrDefault(field, List.of());
  }

  private Map<String, List<Object>> sourcetypeFields() {
    return sourcetype.extract(raw);
  }

  private Map<String, List<Object>> jsonFields() {
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

  private Map<String, List<Object>> keyValueFields() {
    Map<String, List<Object>> fields = new LinkedHashMap<>();
    Matcher pairs = KEY_VALUE.matcher(raw);
    while (pairs.find()) {
      String value = pairs.group(2) != null ? pairs.group(2) : pairs.group(3);
      fields.computeIfAbsent(pairs.group(1), k -> new ArrayList<>()).add(value);
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
