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
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One HEC envelope read from a streaming parser without a JSON tree for its {@code fields}: the
 * top-level members are kept as small nodes (their values are few), the members of {@code fields}
 * as slots of primitive columns — a name (Jackson's canonical instance, so equal names are usually
 * the same object), a kind, and the text or number. A metric envelope of a hundred {@code
 * "metric_name:<name>": <value>} members thus costs no object per value; an event envelope gets its
 * tree back from {@link #toTree}, equal to what {@code ObjectMapper.readTree} would have built
 * (members in order, a repeated name keeping its first position and its last value).
 *
 * <p>Reused from one envelope to the next of a request ({@link #read} clears it). Not thread-safe.
 */
public final class HecEnvelope {
  /** Kinds of a field's value. */
  public static final byte TEXT = 0;

  public static final byte INT = 1;
  public static final byte LONG = 2;
  public static final byte DOUBLE = 3;

  /** Anything else (booleans, null, arrays, objects, big numbers): kept as its node. */
  public static final byte NODE = 4;

  private static final String FIELDS = "fields";
  private static final String EVENT = "event";

  private final ObjectMapper json;

  // the request body the parser reads (null when not known) and the bytes of an "event" string
  // read from it (see #eventAscii)
  private final byte[] body;
  private byte[] eventAscii;

  // top-level members: name and node; null node where "fields" is held as slots
  private String[] memberNames = new String[8];
  private JsonNode[] memberValues = new JsonNode[8];
  private int members;
  private boolean fieldsAsSlots;

  // the members of "fields"
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

  public HecEnvelope(ObjectMapper json) {
    this(json, null);
  }

  /**
   * An envelope reader for a parser over {@code body} (from its first byte): an {@code event}
   * string that is ASCII without escapes is then taken from the body's bytes (see {@link
   * #eventAscii}).
   */
  public HecEnvelope(ObjectMapper json, byte[] body) {
    this.json = json;
    this.body = body;
  }

  /**
   * Reads the object whose {@code START_OBJECT} is the parser's current token, through its {@code
   * END_OBJECT}.
   *
   * @throws IOException malformed JSON, as Jackson reports it
   */
  public void read(JsonParser parser) throws IOException {
    members = 0;
    eventAscii = null;
    fieldsAsSlots = false;
    clearSlots();
    boolean anEvent = false; // "event" came first and is not "metric": fields as a tree, for it
    JsonToken token;
    while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      if (name.equals(EVENT)) {
        eventAscii = value == JsonToken.VALUE_STRING ? EventStringBytes.of(parser, body) : null;
        if (eventAscii != null) {
          // the text made from the bytes: Jackson skips the string without decoding it
          String text = new String(eventAscii, StandardCharsets.ISO_8859_1);
          anEvent = !text.equals("metric");
          putMember(name, TextNode.valueOf(text));
          continue;
        }
        anEvent = value != JsonToken.VALUE_STRING || !parser.getText().equals("metric");
      }
      if (name.equals(FIELDS) && value == JsonToken.START_OBJECT && !anEvent) {
        clearSlots();
        readFields(parser);
        putMember(name, null);
        fieldsAsSlots = true;
      } else {
        JsonNode node = scalarOrTree(parser, value);
        if (name.equals(FIELDS)) {
          fieldsAsSlots = false;
        }
        putMember(name, node);
      }
    }
    if (token != JsonToken.END_OBJECT) {
      throw new IllegalStateException("an object member cannot start with " + token);
    }
  }

  /**
   * The current value as the tree {@code readTree} builds (objects keep a repeated name's first
   * position and last value, as {@code ObjectNode} does), built here from the tokens: no
   * deserialization context per value.
   */
  private JsonNode tree(JsonParser parser) throws IOException {
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
  private JsonNode scalarOrTree(JsonParser parser, JsonToken value) throws IOException {
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

  private void putMember(String name, JsonNode node) {
    for (int i = 0; i < members; i++) {
      if (memberNames[i].equals(name)) {
        memberValues[i] = node;
        return;
      }
    }
    if (members == memberNames.length) {
      memberNames = Arrays.copyOf(memberNames, members * 2);
      memberValues = Arrays.copyOf(memberValues, members * 2);
    }
    memberNames[members] = name;
    memberValues[members] = node;
    members++;
  }

  private void clearSlots() {
    Arrays.fill(nodes, 0, size, null);
    Arrays.fill(texts, 0, size, null);
    size = 0;
    Arrays.fill(seen, 0);
  }

  private void readFields(JsonParser parser) throws IOException {
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
            node(slot, tree(parser));
          }
          texts[slot] = null;
        }
        case VALUE_NUMBER_FLOAT -> {
          if (parser.getNumberType() == JsonParser.NumberType.DOUBLE) {
            kinds[slot] = DOUBLE;
            numbers[slot] = parser.getDoubleValue();
            nodes[slot] = null;
          } else {
            node(slot, tree(parser));
          }
          texts[slot] = null;
        }
        default -> {
          node(slot, tree(parser));
          texts[slot] = null;
        }
      }
    }
    if (token != JsonToken.END_OBJECT) {
      throw new IllegalStateException("an object member cannot start with " + token);
    }
  }

  private void node(int slot, JsonNode node) {
    kinds[slot] = NODE;
    nodes[slot] = node;
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

  /**
   * The bytes of the {@code event} member read last when it is a JSON string of ASCII characters
   * without escapes, taken from the body (one byte a character of its text); null otherwise (no
   * body known, an escape, a byte of a multi-byte character, not a string).
   */
  public byte[] eventAscii() {
    return eventAscii;
  }

  /** A top-level member other than an object {@code fields}; null when absent. */
  public JsonNode member(String name) {
    for (int i = 0; i < members; i++) {
      if (memberNames[i].equals(name)) {
        return memberValues[i] == null ? fieldsTree() : memberValues[i];
      }
    }
    return null;
  }

  /**
   * Whether {@code fields} is an object, held as slots (made now from its tree when it was read as
   * one: an event envelope's, whose {@code event} came first).
   */
  public boolean hasFieldSlots() {
    if (fieldsAsSlots) {
      return true;
    }
    JsonNode fields = null;
    for (int i = 0; i < members; i++) {
      if (memberNames[i].equals(FIELDS)) {
        fields = memberValues[i];
      }
    }
    if (fields == null || !fields.isObject()) {
      return false;
    }
    clearSlots();
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
        node(slot, node);
      }
    }
    fieldsAsSlots = true;
    return true;
  }

  /** Number of members of {@code fields} (when {@link #hasFieldSlots}). */
  public int fieldCount() {
    return size;
  }

  public String fieldName(int i) {
    return names[i];
  }

  /** The kind of field {@code i}'s value: {@link #TEXT}, {@link #INT} … {@link #NODE}. */
  public byte fieldKind(int i) {
    return kinds[i];
  }

  /** The text of a {@link #TEXT} field. */
  public String fieldText(int i) {
    return texts[i];
  }

  /** The value of an {@link #INT}, {@link #LONG} or {@link #DOUBLE} field. */
  public double fieldNumber(int i) {
    return numbers[i];
  }

  /** Field {@code i}'s value as the node {@code readTree} would have made. */
  public JsonNode fieldNode(int i) {
    return switch (kinds[i]) {
      case TEXT -> TextNode.valueOf(texts[i]);
      case INT -> IntNode.valueOf((int) integers[i]);
      case LONG -> LongNode.valueOf(integers[i]);
      case DOUBLE -> DoubleNode.valueOf(numbers[i]);
      default -> nodes[i];
    };
  }

  private ObjectNode fieldsTree() {
    ObjectNode fields = JsonNodeFactory.instance.objectNode();
    for (int i = 0; i < size; i++) {
      fields.set(names[i], fieldNode(i));
    }
    return fields;
  }

  /** The envelope as the tree {@code ObjectMapper.readTree} would have built. */
  public ObjectNode toTree() {
    ObjectNode tree = JsonNodeFactory.instance.objectNode();
    for (int i = 0; i < members; i++) {
      tree.set(memberNames[i], memberValues[i] == null ? fieldsTree() : memberValues[i]);
    }
    return tree;
  }
}
