package io.quarry.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A value put into a {@link ConfigBuilder} as the settings tree holds it: a settings record as its
 * mapping less what its construction from an empty mapping computes (defaults, built-in entries,
 * defaults derived from other fields) and less each field its construction derives from the others
 * (a derived field that differs from its default), so binding the tree computes them again from the
 * settings around them.
 */
final class RecordSettings {
  private RecordSettings() {}

  /** {@code value} as a settings tree node. */
  static JsonNode written(ObjectMapper mapper, Object value) {
    JsonNode node = mapper.valueToTree(value);
    if (value == null || !value.getClass().isRecord() || !(node instanceof ObjectNode mapping)) {
      return node;
    }
    JsonNode computed;
    try {
      computed =
          mapper.valueToTree(
              mapper.treeToValue(JsonNodeFactory.instance.objectNode(), value.getClass()));
    } catch (Exception e) {
      return node; // the record has a required setting: no construction from an empty mapping
    }
    return computed instanceof ObjectNode defaults
        ? withoutDerived(mapper, withoutComputed(mapping, defaults), node, value.getClass())
        : node;
  }

  /**
   * {@code mapping} without each of its fields that the record's construction derives from the
   * others ({@code search.jobTtlSeconds} from a smaller {@code maxJobTtlSeconds}): a field is left
   * out when the record bound from what is left is still {@code whole}.
   */
  private static ObjectNode withoutDerived(
      ObjectMapper mapper, ObjectNode mapping, JsonNode whole, Class<?> type) {
    ObjectNode left = mapping.deepCopy();
    List<String> names = new ArrayList<>();
    mapping.fieldNames().forEachRemaining(names::add);
    for (String name : names) {
      JsonNode field = left.remove(name);
      if (!whole.equals(bound(mapper, left, type))) {
        left.set(name, field);
      }
    }
    return left;
  }

  /** The record {@code mapping} binds to, as a tree; null when it binds to none. */
  private static JsonNode bound(ObjectMapper mapper, ObjectNode mapping, Class<?> type) {
    try {
      return mapper.valueToTree(mapper.treeToValue(mapping, type));
    } catch (Exception e) {
      return null;
    }
  }

  /** {@code mapping} without the entries equal to those of {@code computed}, at any depth. */
  private static ObjectNode withoutComputed(ObjectNode mapping, ObjectNode computed) {
    ObjectNode left = mapping.deepCopy();
    Iterator<Map.Entry<String, JsonNode>> fields = left.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      JsonNode computedValue = computed.get(field.getKey());
      if (computedValue == null) {
        continue;
      }
      if (field.getValue().equals(computedValue)) {
        fields.remove();
      } else if (field.getValue() instanceof ObjectNode inner
          && computedValue instanceof ObjectNode computedInner) {
        field.setValue(withoutComputed(inner, computedInner));
      }
    }
    return left;
  }
}
