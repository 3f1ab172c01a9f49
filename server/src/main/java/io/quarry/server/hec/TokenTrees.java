package io.quarry.server.hec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.util.Objects;

/**
 * A value read from a streaming parser as the node {@code ObjectMapper.readTree} would have made of
 * it, built here from the tokens (no deserialization context per value): a scalar's node directly,
 * an object or an array member by member, and only a big number through the mapper, as Jackson
 * makes it. What {@link HecEnvelope} keeps of the members it does not hold as {@link HecFieldSlots
 * slots}.
 */
final class TokenTrees {
  private final ObjectMapper json;

  TokenTrees(ObjectMapper json) {
    this.json = Objects.requireNonNull(json, "json is null");
  }

  /**
   * The current value as the tree {@code readTree} builds (objects keep a repeated name's first
   * position and last value, as {@code ObjectNode} does), built here from the tokens: no
   * deserialization context per value.
   */
  JsonNode tree(JsonParser parser) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.START_OBJECT) {
      ObjectNode object = JsonNodeFactory.instance.objectNode();
      JsonToken next;
      while ((next = parser.nextToken()) == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        object.set(name, scalarOrTree(parser, parser.nextToken()));
      }
      if (next != JsonToken.END_OBJECT) {
        throw new IllegalStateException("an object member cannot start with " + next);
      }
      return object;
    }
    if (token == JsonToken.START_ARRAY) {
      com.fasterxml.jackson.databind.node.ArrayNode array = JsonNodeFactory.instance.arrayNode();
      JsonToken next;
      while ((next = parser.nextToken()) != JsonToken.END_ARRAY) {
        array.add(scalarOrTree(parser, next));
      }
      return array;
    }
    return json.readTree(parser); // a big number: as Jackson makes it
  }

  /**
   * The current value as {@code readTree} makes it: a scalar's node built here (no deserialization
   * context per value — a top-level {@code time} is a number in every envelope), a structure read
   * as a tree.
   */
  JsonNode scalarOrTree(JsonParser parser, JsonToken value) throws IOException {
    switch (value) {
      case VALUE_STRING:
        return TextNode.valueOf(parser.getText());
      case VALUE_TRUE:
        return com.fasterxml.jackson.databind.node.BooleanNode.TRUE;
      case VALUE_FALSE:
        return com.fasterxml.jackson.databind.node.BooleanNode.FALSE;
      case VALUE_NULL:
        return com.fasterxml.jackson.databind.node.NullNode.getInstance();
      case VALUE_NUMBER_INT:
        switch (parser.getNumberType()) {
          case INT:
            return IntNode.valueOf(parser.getIntValue());
          case LONG:
            return LongNode.valueOf(parser.getLongValue());
          default:
            return tree(parser);
        }
      case VALUE_NUMBER_FLOAT:
        return parser.getNumberType() == JsonParser.NumberType.DOUBLE
            ? DoubleNode.valueOf(parser.getDoubleValue())
            : tree(parser);
      default:
        return tree(parser);
    }
  }
}
