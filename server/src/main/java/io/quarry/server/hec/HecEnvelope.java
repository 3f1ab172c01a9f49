package io.quarry.server.hec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One HEC envelope read from a streaming parser without a JSON tree for its {@code fields}: the
 * top-level members are kept as small nodes (their values are few, {@link TokenTrees}), the members
 * of {@code fields} as slots of primitive columns ({@link HecFieldSlots}), so that a metric
 * envelope of a hundred {@code "metric_name:<name>": <value>} members costs no object per value; an
 * event envelope gets its tree back from {@link #toTree}, equal to what {@code
 * ObjectMapper.readTree} would have built (members in order, a repeated name keeping its first
 * position and its last value).
 *
 * <p>Reused from one envelope to the next of a request ({@link #read} clears it). Not thread-safe.
 */
public final class HecEnvelope {
  /** Kinds of a field's value ({@link #fieldKind}), as {@link HecFieldSlots} holds them. */
  public static final byte TEXT = HecFieldSlots.TEXT;

  public static final byte INT = HecFieldSlots.INT;
  public static final byte LONG = HecFieldSlots.LONG;
  public static final byte DOUBLE = HecFieldSlots.DOUBLE;

  /** Anything else (booleans, null, arrays, objects, big numbers): kept as its node. */
  public static final byte NODE = HecFieldSlots.NODE;

  private static final String FIELDS = "fields";
  private static final String EVENT = "event";

  private final TokenTrees trees;

  // the request body the parser reads (null when not known) and the bytes of an "event" string
  // read from it (see #eventAscii)
  private final byte[] body;
  private byte[] eventAscii;

  // top-level members: name and node; null node where "fields" is held as slots
  private String[] memberNames = new String[8];
  private JsonNode[] memberValues = new JsonNode[8];
  private int members;
  private boolean fieldsAsSlots;

  private final HecFieldSlots fields = new HecFieldSlots();

  public HecEnvelope(ObjectMapper json) {
    this(json, null);
  }

  /**
   * An envelope reader for a parser over {@code body} (from its first byte): an {@code event}
   * string that is ASCII without escapes is then taken from the body's bytes (see {@link
   * #eventAscii}).
   */
  public HecEnvelope(ObjectMapper json, byte[] body) {
    this.trees = new TokenTrees(json);
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
    fields.clear();
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
        fields.clear();
        fields.read(parser, trees);
        putMember(name, null);
        fieldsAsSlots = true;
      } else {
        JsonNode node = trees.scalarOrTree(parser, value);
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
        return memberValues[i] == null ? fields.toTree() : memberValues[i];
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
    JsonNode tree = null;
    for (int i = 0; i < members; i++) {
      if (memberNames[i].equals(FIELDS)) {
        tree = memberValues[i];
      }
    }
    if (tree == null || !tree.isObject()) {
      return false;
    }
    fields.readTree(tree);
    fieldsAsSlots = true;
    return true;
  }

  /** Number of members of {@code fields} (when {@link #hasFieldSlots}). */
  public int fieldCount() {
    return fields.count();
  }

  public String fieldName(int i) {
    return fields.name(i);
  }

  /** The kind of field {@code i}'s value: {@link #TEXT}, {@link #INT} … {@link #NODE}. */
  public byte fieldKind(int i) {
    return fields.kind(i);
  }

  /** The text of a {@link #TEXT} field. */
  public String fieldText(int i) {
    return fields.text(i);
  }

  /** The value of an {@link #INT}, {@link #LONG} or {@link #DOUBLE} field. */
  public double fieldNumber(int i) {
    return fields.number(i);
  }

  /** Field {@code i}'s value as the node {@code readTree} would have made. */
  public JsonNode fieldNode(int i) {
    return fields.node(i);
  }

  /** The envelope as the tree {@code ObjectMapper.readTree} would have built. */
  public ObjectNode toTree() {
    ObjectNode tree = JsonNodeFactory.instance.objectNode();
    for (int i = 0; i < members; i++) {
      tree.set(memberNames[i], memberValues[i] == null ? fields.toTree() : memberValues[i]);
    }
    return tree;
  }
}
