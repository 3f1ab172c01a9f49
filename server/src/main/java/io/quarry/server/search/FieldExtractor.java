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
 * Search-time field extraction from {@code _raw}, in Splunk's order of precedence: the sourcetype's
 * extraction, then JSON (when the event is a JSON object), then automatic {@code key=value} pairs.
 * A field found by an earlier step is not overwritten by a later one.
 */
final class FieldExtractor {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern KEY_VALUE =
      Pattern.compile("(?<![\\w.-])([A-Za-z_][\\w.-]{0,99})=(?:\"([^\"]*)\"|([^\\s,;&\"]+))");

  private FieldExtractor() {}

  static Map<String, List<Object>> extract(String raw, String sourcetypeName) {
    Map<String, List<Object>> fields = new LinkedHashMap<>();
    Sourcetype sourcetype = Sourcetypes.forName(sourcetypeName);
    sourcetype
        .extraction()
        .ifPresent(
            pattern -> {
              Matcher matcher = pattern.matcher(raw);
              if (matcher.find()) {
                for (String group : pattern.namedGroups().keySet()) {
                  String value = matcher.group(group);
                  if (value != null) {
                    fields.put(Sourcetypes.fieldName(group), List.of(value));
                  }
                }
              }
            });
    String trimmed = raw.strip();
    if (trimmed.startsWith("{") && trimmed.endsWith("}")) {
      try {
        Map<String, List<Object>> json = new LinkedHashMap<>();
        flatten("", JSON.readTree(trimmed), json);
        json.forEach(fields::putIfAbsent);
      } catch (JsonProcessingException notJson) {
        // not JSON after all: key=value below still applies
      }
    }
    Matcher pairs = KEY_VALUE.matcher(raw);
    Map<String, List<Object>> automatic = new LinkedHashMap<>();
    while (pairs.find()) {
      String value = pairs.group(2) != null ? pairs.group(2) : pairs.group(3);
      automatic.computeIfAbsent(pairs.group(1), k -> new ArrayList<>()).add(value);
    }
    automatic.forEach(fields::putIfAbsent);
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
