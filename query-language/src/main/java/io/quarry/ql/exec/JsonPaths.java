package io.quarry.ql.exec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Splunk's {@code spath} location paths over JSON: steps separated by {@code .}, each a name and
 * any number of {@code {n}} (the array element at n, from 0; negative from the end) or {@code {}}
 * (every element: a multivalue); a path may start with an index step for a top-level array ({@code
 * {}.id}). Values as Quarry's automatic JSON extraction gives them: whole numbers Long, other
 * numbers Double, text and booleans as text, nulls left out, objects and arrays as their JSON text.
 * Shared by {@code spath} (the command) and the JSON eval functions ({@link JsonFunctions}).
 */
public final class JsonPaths {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One step: a name (empty for none), its index selectors ({@link #ALL} for {@code {}}) and, on
   * the last step only, an XML attribute ({@code {@name}}; null for none, and JSON has none).
   */
  public record Step(String name, List<Integer> indexes, String attribute) {
    public Step(String name, List<Integer> indexes) {
      this(name, indexes, null);
    }
  }

  public static final int ALL = Integer.MIN_VALUE;

  private JsonPaths() {}

  /**
   * The steps of a path.
   *
   * @throws IllegalArgumentException for a path that is not one (unbalanced braces, an XML
   *     attribute not on the last step, an empty step)
   */
  public static List<Step> parse(String path) {
    List<Step> steps = new ArrayList<>();
    int i = 0;
    int n = path.length();
    if (n == 0) {
      throw new IllegalArgumentException("the path is empty");
    }
    while (i <= n) {
      StringBuilder name = new StringBuilder();
      while (i < n && path.charAt(i) != '.' && path.charAt(i) != '{') {
        name.append(path.charAt(i++));
      }
      List<Integer> indexes = new ArrayList<>();
      String attribute = null;
      while (i < n && path.charAt(i) == '{') {
        if (attribute != null) {
          throw new IllegalArgumentException(
              "an XML attribute ({@" + attribute + "}) ends its path: " + path);
        }
        int close = path.indexOf('}', i);
        if (close < 0) {
          throw new IllegalArgumentException("'{' without '}' in path " + path);
        }
        String index = path.substring(i + 1, close).strip();
        if (index.isEmpty()) {
          indexes.add(ALL);
        } else if (index.startsWith("@")) {
          attribute = index.substring(1).strip();
          if (attribute.isEmpty()) {
            throw new IllegalArgumentException("'{@}' names no attribute in path " + path);
          }
        } else {
          try {
            indexes.add(Integer.parseInt(index));
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                "'{" + index + "}' is not an array index ({n} or {}) in path " + path);
          }
        }
        i = close + 1;
      }
      if (name.isEmpty() && indexes.isEmpty()) {
        throw new IllegalArgumentException("empty step in path " + path);
      }
      steps.add(new Step(name.toString(), List.copyOf(indexes), attribute));
      if (attribute != null && i < n) {
        throw new IllegalArgumentException(
            "an XML attribute ({@" + attribute + "}) ends its path: " + path);
      }
      if (i < n && path.charAt(i) != '.') {
        throw new IllegalArgumentException("unexpected '" + path.charAt(i) + "' in path " + path);
      }
      i++; // past the '.', or past the end
    }
    return steps;
  }

  /** The JSON document in {@code text}, or null when it is not JSON (an object or an array). */
  public static JsonNode read(String text) {
    String trimmed = text.strip();
    if (trimmed.isEmpty() || (trimmed.charAt(0) != '{' && trimmed.charAt(0) != '[')) {
      return null;
    }
    try {
      return JSON.readTree(trimmed);
    } catch (JsonProcessingException notJson) {
      return null;
    }
  }

  /**
   * The JSON texts of the elements of the JSON array in {@code text} ({@code 1}, {@code "a"},
   * {@code {"b":2}}), or null when it is not a JSON array: {@code foreach mode=json_array}'s items.
   */
  public static List<String> elementTexts(String text) {
    JsonNode array = read(text);
    if (array == null || !array.isArray()) {
      return null;
    }
    List<String> texts = new ArrayList<>(array.size());
    array.forEach(element -> texts.add(element.toString()));
    return texts;
  }

  /** The values at the path (several: a multivalue; none: no match). */
  public static List<Object> extract(JsonNode root, List<Step> steps) {
    if (!steps.isEmpty() && steps.get(steps.size() - 1).attribute() != null) {
      return List.of(); // JSON has no attributes
    }
    List<JsonNode> nodes = List.of(root);
    for (Step step : steps) {
      List<JsonNode> next = new ArrayList<>();
      for (JsonNode node : nodes) {
        JsonNode current =
            step.name().isEmpty() ? node : node.isObject() ? node.get(step.name()) : null;
        if (current == null) {
          continue;
        }
        select(current, step.indexes(), 0, next);
      }
      nodes = next;
      if (nodes.isEmpty()) {
        return List.of();
      }
    }
    List<Object> values = new ArrayList<>(nodes.size());
    for (JsonNode node : nodes) {
      Object value = value(node);
      if (value != null) {
        values.add(value);
      }
    }
    return values;
  }

  private static void select(JsonNode node, List<Integer> indexes, int at, List<JsonNode> into) {
    if (at == indexes.size()) {
      into.add(node);
      return;
    }
    if (!node.isArray()) {
      return;
    }
    int index = indexes.get(at);
    if (index == ALL) {
      for (JsonNode item : node) {
        select(item, indexes, at + 1, into);
      }
      return;
    }
    int position = index < 0 ? node.size() + index : index;
    if (position >= 0 && position < node.size()) {
      select(node.get(position), indexes, at + 1, into);
    }
  }

  /** A leaf's value, an object's or array's JSON text, or null for a JSON null. */
  public static Object value(JsonNode node) {
    if (node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      return node.longValue();
    }
    if (node.isNumber()) {
      return node.doubleValue();
    }
    if (node.isContainerNode()) {
      return node.toString();
    }
    return node.asText();
  }

  /**
   * Every leaf of a document under its path ({@code a.b}, {@code a{}} for array elements, {@code
   * a{}.b}), values in document order; a path met several times is a multivalue.
   */
  public static void flatten(String prefix, JsonNode node, Map<String, List<Object>> into) {
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
    } else if (!prefix.isEmpty()) {
      Object value = value(node);
      if (value != null) {
        into.computeIfAbsent(prefix, k -> new ArrayList<>()).add(value);
      }
    }
  }
}
