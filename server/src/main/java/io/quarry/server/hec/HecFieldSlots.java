package io.quarry.server.hec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.util.Arrays;

/**
 * The members of a HEC envelope's {@code fields} object as slots of primitive columns: a name
 * (Jackson's canonical instance, so equal names are usually the same object), a kind ({@link
 * #TEXT}, {@link #INT}, {@link #LONG}, {@link #DOUBLE}, or {@link #NODE} for anything else), and
 * the text, the number or the node. A metric envelope of a hundred {@code "metric_name:<name>":
 * <value>} members thus costs no object per value. A repeated name keeps its first slot and its
 * last value, as {@code ObjectNode} keeps a repeated member.
 *
 * <p>Reused from one envelope to the next ({@link #clear}). Not thread-safe.
 */
final class HecFieldSlots {
  /** Kinds of a field's value. */
  static final byte TEXT = 0;

  static final byte INT = 1;
  static final byte LONG = 2;
  static final byte DOUBLE = 3;

  /** Anything else (booleans, null, arrays, objects, big numbers): kept as its node. */
  static final byte NODE = 4;

  private String[] names = new String[128];
  private byte[] kinds = new byte[128];
  private String[] texts = new String[128];
  private double[] numbers = new double[128];
  private long[] integers = new long[128];
  private JsonNode[] nodes = new JsonNode[128];
  private int size;
  private final long[] seen = new long[16]; // a filter of the names' hashes, for repeated names
  private static final int FILTERED = 64;
  private final java.util.HashMap<String, Integer> bySlotName = new java.util.HashMap<>();

  /** Empties the slots. */
  void clear() {
    Arrays.fill(nodes, 0, size, null);
    Arrays.fill(texts, 0, size, null);
    size = 0;
    Arrays.fill(seen, 0);
  }

  /**
   * Reads the members of the object whose {@code START_OBJECT} is the parser's current token,
   * through its {@code END_OBJECT}; a value of no primitive kind through {@code trees}.
   */
  void read(JsonParser parser, TokenTrees trees) throws IOException {
    JsonToken token;
    while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      int slot = slotFor(name);
      switch (parser.nextToken()) {
        case VALUE_STRING -> {
          kinds[slot] = TEXT;
          texts[slot] = parser.getText();
          nodes[slot] = null;
        }
        case VALUE_NUMBER_INT -> {
          JsonParser.NumberType type = parser.getNumberType();
          if (type == JsonParser.NumberType.INT || type == JsonParser.NumberType.LONG) {
            long value = parser.getLongValue();
            kinds[slot] = type == JsonParser.NumberType.INT ? INT : LONG;
            integers[slot] = value;
            numbers[slot] = value;
            nodes[slot] = null;
          } else {
            holdNode(slot, trees.tree(parser));
          }
          texts[slot] = null;
        }
        case VALUE_NUMBER_FLOAT -> {
          if (parser.getNumberType() == JsonParser.NumberType.DOUBLE) {
            kinds[slot] = DOUBLE;
            numbers[slot] = parser.getDoubleValue();
            nodes[slot] = null;
          } else {
            holdNode(slot, trees.tree(parser));
          }
          texts[slot] = null;
        }
        default -> {
          holdNode(slot, trees.tree(parser));
          texts[slot] = null;
        }
      }
    }
    if (token != JsonToken.END_OBJECT) {
      throw new IllegalStateException("an object member cannot start with " + token);
    }
  }

  private void holdNode(int slot, JsonNode node) {
    kinds[slot] = NODE;
    nodes[slot] = node;
  }

  /** Holds the members of {@code fields}, an object read as a tree, as slots. */
  void readTree(JsonNode fields) {
    clear();
    for (var it = fields.properties().iterator(); it.hasNext(); ) {
      var field = it.next();
      int slot = slotFor(field.getKey());
      JsonNode node = field.getValue();
      if (node.isTextual()) {
        kinds[slot] = TEXT;
        texts[slot] = node.textValue();
      } else if (node instanceof IntNode || node instanceof LongNode) {
        kinds[slot] = node instanceof IntNode ? INT : LONG;
        integers[slot] = node.longValue();
        numbers[slot] = node.longValue();
      } else if (node instanceof DoubleNode) {
        kinds[slot] = DOUBLE;
        numbers[slot] = node.doubleValue();
      } else {
        holdNode(slot, node);
      }
    }
  }

  /**
   * The slot of a field name: a new one, or the earlier one of the same name (last value wins). A
   * filter of the names' hashes answers "new" without a search for most names; past {@value
   * #FILTERED} names (the filter fills up) a map of the names does.
   */
  private int slotFor(String name) {
    if (size >= FILTERED) {
      if (size == FILTERED) {
        bySlotName.clear();
        for (int i = 0; i < size; i++) {
          bySlotName.putIfAbsent(names[i], i);
        }
      }
      Integer earlier = bySlotName.putIfAbsent(name, size);
      if (earlier != null) {
        return earlier;
      }
    } else {
      int hash = name.hashCode() & 1023;
      long bit = 1L << hash;
      if ((seen[hash >>> 6] & bit) != 0) {
        for (int i = 0; i < size; i++) {
          if (names[i].equals(name)) {
            return i;
          }
        }
      }
      seen[hash >>> 6] |= bit;
    }
    if (size == names.length) {
      int capacity = size * 2;
      names = Arrays.copyOf(names, capacity);
      kinds = Arrays.copyOf(kinds, capacity);
      texts = Arrays.copyOf(texts, capacity);
      numbers = Arrays.copyOf(numbers, capacity);
      integers = Arrays.copyOf(integers, capacity);
      nodes = Arrays.copyOf(nodes, capacity);
    }
    names[size] = name;
    return size++;
  }

  /** Number of members held. */
  int count() {
    return size;
  }

  String name(int i) {
    return names[i];
  }

  /** The kind of field {@code i}'s value: {@link #TEXT}, {@link #INT} … {@link #NODE}. */
  byte kind(int i) {
    return kinds[i];
  }

  /** The text of a {@link #TEXT} field. */
  String text(int i) {
    return texts[i];
  }

  /** The value of an {@link #INT}, {@link #LONG} or {@link #DOUBLE} field. */
  double number(int i) {
    return numbers[i];
  }

  /** Field {@code i}'s value as the node {@code readTree} would have made. */
  JsonNode node(int i) {
    return switch (kinds[i]) {
      case TEXT -> TextNode.valueOf(texts[i]);
      case INT -> IntNode.valueOf((int) integers[i]);
      case LONG -> LongNode.valueOf(integers[i]);
      case DOUBLE -> DoubleNode.valueOf(numbers[i]);
      default -> nodes[i];
    };
  }

  /** The members as the object {@code readTree} would have made. */
  ObjectNode toTree() {
    ObjectNode fields = JsonNodeFactory.instance.objectNode();
    for (int i = 0; i < size; i++) {
      fields.set(names[i], node(i));
    }
    return fields;
  }
}
