package io.quarry.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * A value put into a {@link ConfigBuilder} as the settings tree holds it: a settings record as its
 * mapping less what its construction from an empty mapping computes (defaults, built-in entries,
 * defaults derived from other fields), so binding the tree computes them again from the settings
 * around them.
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
    return computed instanceof ObjectNode defaults ? withoutComputed(mapping, defaults) : node;
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
