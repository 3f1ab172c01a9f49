package io.quarry.ql.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The JSON eval functions, as Splunk's Search Reference defines them: {@code json_object}, {@code
 * json_array}, {@code json_extract}, {@code json_keys}, {@code json_valid} and {@code spath}. JSON
 * values are text: a value that is the text of a JSON object or array is embedded as that object or
 * array when building ({@code json_object("a", json_array(1, 2))} is {@code {"a":[1,2]}}); a
 * multivalue is an array. Paths are {@code spath}'s ({@link JsonPaths}).
 */
final class JsonFunctions {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ObjectMapper JSON = new ObjectMapper();

  private JsonFunctions() {}

  static Object apply(String function, List<Object> arguments) {
    return switch (function) {
      case "json_object" -> {
        ObjectNode object = NODES.objectNode();
        for (int i = 0; i + 1 < arguments.size(); i += 2) {
          if (arguments.get(i) == null) {
            yield null; // a key must be text
          }
          object.set(Values.toText(arguments.get(i)), node(arguments.get(i + 1)));
        }
        yield object.toString();
      }
      case "json_array" -> {
        ArrayNode array = NODES.arrayNode();
        arguments.forEach(a -> array.add(node(a)));
        yield array.toString();
      }
      case "json_extract" -> extract(arguments);
      case "json_keys" -> {
        JsonNode root = document(arguments.get(0));
        if (root == null || !root.isObject()) {
          yield null;
        }
        ArrayNode keys = NODES.arrayNode();
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
          keys.add(it.next());
        }
        yield keys.toString();
      }
      case "json_valid" -> arguments.get(0) != null && valid(Values.toText(arguments.get(0)));
      case "spath" -> spath(arguments.get(0), arguments.get(1));
      default -> throw new IllegalStateException("not a JSON function: " + function);
    };
  }

  /** {@code json_extract(json[, path …])}: the document, one path's value, or an array of them. */
  private static Object extract(List<Object> arguments) {
    JsonNode root = document(arguments.get(0));
    if (root == null) {
      return null;
    }
    if (arguments.size() == 1) {
      return root.toString();
    }
    List<Object> values = new ArrayList<>();
    for (Object path : arguments.subList(1, arguments.size())) {
      values.add(path == null ? null : at(root, Values.toText(path)));
    }
    if (values.size() == 1) {
      return values.get(0);
    }
    ArrayNode array = NODES.arrayNode();
    values.forEach(v -> array.add(node(v)));
    return array.toString();
  }

  /** The value at a path: a leaf's value, a container's JSON text, several matches as an array. */
  private static Object at(JsonNode root, String path) {
    List<Object> values;
    try {
      values = JsonPaths.extract(root, JsonPaths.parse(path));
    } catch (IllegalArgumentException notAPath) {
      return null;
    }
    if (values.isEmpty()) {
      return null;
    }
    if (values.size() == 1) {
      return values.get(0);
    }
    ArrayNode array = NODES.arrayNode();
    values.forEach(v -> array.add(node(v)));
    return array.toString();
  }

  /** {@code spath(json, path)}: the values at the path (JSON or XML), several as a multivalue. */
  private static Object spath(Object json, Object path) {
    if (json == null || path == null) {
      return null;
    }
    try {
      List<Object> values =
          Spath.extract(Values.toText(json), JsonPaths.parse(Values.toText(path)));
      return switch (values.size()) {
        case 0 -> null;
        case 1 -> values.get(0);
        default -> List.copyOf(values);
      };
    } catch (IllegalArgumentException notAPath) {
      return null;
    }
  }

  static JsonNode document(Object value) {
    if (value == null) {
      return null;
    }
    try {
      return JSON.readTree(Values.toText(value));
    } catch (java.io.IOException notJson) {
      return null;
    }
  }

  private static boolean valid(String text) {
    try {
      JSON.readTree(text);
      return !text.isBlank();
    } catch (java.io.IOException notJson) {
      return false;
    }
  }

  /** A value as a JSON node: a JSON object's or array's text embedded, a multivalue an array. */
  static JsonNode node(Object value) {
    return switch (value) {
      case null -> NODES.nullNode();
      case Long l -> NODES.numberNode(l);
      // a whole double is the whole number (Values.isWhole): 4, not 4.0, wherever pages part
      case Double d -> Values.isWhole(d) ? NODES.numberNode(d.longValue()) : NODES.numberNode(d);
      case Boolean b -> NODES.booleanNode(b);
      case List<?> list -> {
        ArrayNode array = NODES.arrayNode();
        list.forEach(v -> array.add(node(v)));
        yield array;
      }
      default -> {
        String text = Values.toText(value);
        JsonNode container = JsonPaths.read(text);
        yield container != null ? container : NODES.textNode(text);
      }
    };
  }
}
