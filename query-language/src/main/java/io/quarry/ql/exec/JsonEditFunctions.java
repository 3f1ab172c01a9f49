package io.quarry.ql.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The eval functions that change a JSON document or turn one into a multivalue, as Splunk's Search
 * Reference defines them: {@code json_set(json, path, value, …)} (overwrite, or insert a key into
 * an object that exists), {@code json_delete(json, path, …)}, {@code json_append(json, path, value,
 * …)} (adds the value to the array at the path), {@code json_extend(json, path, array, …)} (adds
 * each element of the array), {@code json_array_to_mv(array[, keep_quotes])} and {@code
 * mv_to_json_array(mv[, infer_types])}. Path-value pairs apply left to right, each on the document
 * the one before left; a path that finds nothing (for append and extend: nothing that is an array)
 * is skipped. A document that is not JSON gives null. Values are embedded as {@link
 * JsonFunctions#node} embeds them (a JSON object's or array's text as that object or array).
 */
final class JsonEditFunctions {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JsonEditFunctions() {}

  static Object apply(String function, List<Object> arguments) {
    return switch (function) {
      case "json_array_to_mv" -> toMultivalue(arguments);
      case "mv_to_json_array" -> fromMultivalue(arguments);
      case "json_extract_exact", "json_set_exact", "json_has_key_exact" ->
          exact(function, arguments);
      default -> edit(function, arguments);
    };
  }

  /**
   * The {@code _exact} forms: keys are literal top-level keys of an object, never paths ({@code
   * "a.b"} is the key {@code a.b}). {@code json_extract_exact(json, key, …)}: one key's value, or a
   * JSON array of several; {@code json_set_exact(json, key, value, …)}; {@code
   * json_has_key_exact(json, key)}.
   */
  private static Object exact(String function, List<Object> arguments) {
    JsonNode root = JsonFunctions.document(arguments.get(0));
    if (!(root instanceof ObjectNode object)) {
      return function.equals("json_has_key_exact") && arguments.get(0) != null ? false : null;
    }
    switch (function) {
      case "json_has_key_exact" -> {
        return arguments.get(1) != null && object.has(Values.toText(arguments.get(1)));
      }
      case "json_set_exact" -> {
        ObjectNode copy = object.deepCopy();
        for (int i = 1; i + 1 < arguments.size(); i += 2) {
          if (arguments.get(i) != null) {
            copy.set(Values.toText(arguments.get(i)), JsonFunctions.node(arguments.get(i + 1)));
          }
        }
        return copy.toString();
      }
      default -> {
        List<JsonNode> found = new ArrayList<>();
        for (Object key : arguments.subList(1, arguments.size())) {
          JsonNode value = key == null ? null : object.get(Values.toText(key));
          found.add(value == null ? NODES.nullNode() : value);
        }
        if (found.size() == 1) {
          return found.get(0).isNull() ? null : JsonPaths.value(found.get(0));
        }
        ArrayNode array = NODES.arrayNode();
        found.forEach(array::add);
        return array.toString();
      }
    }
  }

  private static Object edit(String function, List<Object> arguments) {
    JsonNode root = JsonFunctions.document(arguments.get(0));
    if (root == null || !root.isContainerNode()) {
      return null;
    }
    root = root.deepCopy();
    boolean delete = function.equals("json_delete");
    for (int i = 1; i < arguments.size(); i += delete ? 1 : 2) {
      Object path = arguments.get(i);
      if (path == null) {
        continue;
      }
      List<Selector> selectors;
      try {
        selectors = selectors(JsonPaths.parse(Values.toText(path)));
      } catch (IllegalArgumentException notAPath) {
        continue;
      }
      List<Target> targets = new ArrayList<>();
      locate(root, selectors, 0, targets);
      Object value = delete ? null : i + 1 < arguments.size() ? arguments.get(i + 1) : null;
      switch (function) {
        case "json_set" -> targets.forEach(t -> t.set(JsonFunctions.node(value)));
        case "json_delete" -> {
          // several elements of one array: the last first, so the indexes stay right
          targets.sort(Comparator.comparingInt(Target::index).reversed());
          targets.forEach(Target::remove);
        }
        case "json_append" ->
            targets.forEach(
                t -> {
                  if (t.get() instanceof ArrayNode array) {
                    array.add(JsonFunctions.node(value));
                  }
                });
        case "json_extend" ->
            targets.forEach(
                t -> {
                  if (t.get() instanceof ArrayNode array) {
                    JsonNode items = JsonFunctions.node(value);
                    if (items.isArray()) {
                      items.forEach(array::add);
                    } else if (!items.isNull()) {
                      array.add(items);
                    }
                  }
                });
        default -> throw new IllegalStateException("not a JSON edit function: " + function);
      }
    }
    return root.toString();
  }

  /** A boolean argument: {@code true()}, or the text true/t/1. */
  private static boolean truthy(Object value) {
    if (value instanceof Boolean bool) {
      return bool;
    }
    String text = value == null ? "" : Values.toText(value).toLowerCase(java.util.Locale.ROOT);
    return text.equals("true") || text.equals("t") || text.equals("1");
  }

  /** One step of a path: an object key, or an array index ({@link JsonPaths#ALL}: every one). */
  private record Selector(String name, int index) {}

  private static List<Selector> selectors(List<JsonPaths.Step> steps) {
    List<Selector> selectors = new ArrayList<>();
    for (JsonPaths.Step step : steps) {
      if (step.attribute() != null) {
        throw new IllegalArgumentException("JSON has no attributes");
      }
      if (!step.name().isEmpty()) {
        selectors.add(new Selector(step.name(), 0));
      }
      step.indexes().forEach(index -> selectors.add(new Selector(null, index)));
    }
    return selectors;
  }

  /** A place in a document: a key of an object or an index of an array. */
  private record Target(JsonNode container, String key, int index) {
    JsonNode get() {
      return key != null ? container.get(key) : container.get(index);
    }

    void set(JsonNode value) {
      if (key != null) {
        ((ObjectNode) container).set(key, value);
      } else {
        ((ArrayNode) container).set(index, value);
      }
    }

    void remove() {
      if (key != null) {
        ((ObjectNode) container).remove(key);
      } else {
        ((ArrayNode) container).remove(index);
      }
    }
  }

  /**
   * The places the selectors from {@code at} on lead to under {@code node}: a last key need not
   * exist yet (json_set inserts it), the objects and arrays on the way must.
   */
  private static void locate(JsonNode node, List<Selector> selectors, int at, List<Target> into) {
    Selector selector = selectors.get(at);
    boolean last = at == selectors.size() - 1;
    if (selector.name() != null) {
      if (!(node instanceof ObjectNode object)) {
        return;
      }
      if (last) {
        into.add(new Target(object, selector.name(), -1));
        return;
      }
      JsonNode child = object.get(selector.name());
      if (child != null) {
        locate(child, selectors, at + 1, into);
      }
      return;
    }
    if (!(node instanceof ArrayNode array)) {
      return;
    }
    List<Integer> positions = new ArrayList<>();
    if (selector.index() == JsonPaths.ALL) {
      for (int i = 0; i < array.size(); i++) {
        positions.add(i);
      }
    } else {
      int position = selector.index() < 0 ? array.size() + selector.index() : selector.index();
      if (position >= 0 && position < array.size()) {
        positions.add(position);
      }
    }
    for (int position : positions) {
      if (last) {
        into.add(new Target(array, null, position));
      } else {
        locate(array.get(position), selectors, at + 1, into);
      }
    }
  }

  /**
   * {@code json_array_to_mv(array[, keep_quotes])}: the elements as a multivalue; strings without
   * their JSON quotes unless {@code keep_quotes} is true, numbers as numbers, objects and arrays as
   * their JSON text, a JSON null as the text {@code null}.
   */
  private static Object toMultivalue(List<Object> arguments) {
    JsonNode array = JsonFunctions.document(arguments.get(0));
    if (array == null || !array.isArray()) {
      return null;
    }
    boolean quotes = arguments.size() > 1 && truthy(arguments.get(1));
    List<Object> values = new ArrayList<>(array.size());
    for (JsonNode element : array) {
      if (element.isNull()) {
        values.add("null");
      } else if (element.isTextual() && quotes) {
        values.add(element.toString());
      } else if (element.isBoolean()) {
        values.add(element.asText());
      } else {
        values.add(JsonPaths.value(element));
      }
    }
    return switch (values.size()) {
      case 0 -> null;
      case 1 -> values.get(0);
      default -> List.copyOf(values);
    };
  }

  /**
   * {@code mv_to_json_array(mv[, infer_types])}: a JSON array of the values, as strings, or with
   * {@code infer_types} true numbers, booleans and JSON texts as themselves.
   */
  private static Object fromMultivalue(List<Object> arguments) {
    Object values = arguments.get(0);
    if (values == null) {
      return null;
    }
    boolean infer = arguments.size() > 1 && truthy(arguments.get(1));
    ArrayNode array = NODES.arrayNode();
    for (Object value : values instanceof List<?> list ? list : List.of(values)) {
      String text = Values.toText(value);
      if (!infer) {
        array.add(text);
        continue;
      }
      JsonNode parsed = JsonFunctions.document(text);
      array.add(parsed != null && !parsed.isMissingNode() ? parsed : NODES.textNode(text));
    }
    return array.toString();
  }
}
