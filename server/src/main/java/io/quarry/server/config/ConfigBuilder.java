package io.quarry.server.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * The one way to make a {@link QuarryConfig}: settings by their path in {@code conf/quarry.yml}
 * ({@code server.port}, {@code storage.indexes.m.datatype}), every other setting at its default,
 * bound and checked as the file is. {@link ConfigLoader} fills one from the file, the environment
 * and the flags; servers embedded in other programs and tests fill one in code:
 *
 * <pre>{@code
 * QuarryConfig.builder()
 *     .put("server.port", 0)
 *     .put("dataDir", data.toString())
 *     .put("auth.adminPassword", "pw")
 *     .add("hec.tokens", Map.of("token", "tok", "indexes", List.of("main")))
 *     .build();
 * }</pre>
 */
public final class ConfigBuilder {
  private static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory())
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

  private final ObjectNode tree;

  ConfigBuilder() {
    this(JsonNodeFactory.instance.objectNode());
  }

  /** Settings parsed from a file, to be overridden. */
  ConfigBuilder(ObjectNode tree) {
    this.tree = tree;
  }

  /** Reads YAML text into a tree of settings (for {@link ConfigLoader}). */
  static JsonNode readYaml(java.io.File file) throws java.io.IOException {
    return YAML.readTree(file);
  }

  /**
   * Sets one setting: a string, number, boolean, list, map, or a settings record ({@link HecToken},
   * {@link io.quarry.server.sourcetype.SourcetypeSettings} …) written as its YAML mapping, leaving
   * out every field (at any depth) equal to the one the record's construction from an empty mapping
   * computes: the built-in roles of an {@link Auth}, a default or a default derived from another
   * field ({@code search.jobTtlSeconds}), and every field the record's construction derives from
   * the others (a {@code jobTtlSeconds} of 300 under a {@code maxJobTtlSeconds} of 300). So a later
   * {@code put} of one of its settings binds as that setting over the defaults would, derived
   * fields derived again, and a record round-trips.
   *
   * <p>A path is split on {@code .}; a map whose keys may contain a dot (index or sourcetype names:
   * {@code storage.indexes}, {@code sourcetypes}) is put whole at its parent's path: {@code
   * put("storage.indexes", Map.of("web.v2", Map.of("datatype", "metric")))}.
   *
   * @throws ConfigException when a setting on the path is not a mapping
   */
  public ConfigBuilder put(String path, Object value) {
    String[] parts = path.split("\\.");
    parent(path, parts).set(parts[parts.length - 1], RecordSettings.written(YAML, value));
    return this;
  }

  /** Appends one item to the list setting at {@code path} ({@code hec.tokens}). */
  public ConfigBuilder add(String path, Object item) {
    String[] parts = path.split("\\.");
    ObjectNode parent = parent(path, parts);
    String leaf = parts[parts.length - 1];
    JsonNode existing = parent.get(leaf);
    if (existing != null && !existing.isNull() && !(existing instanceof ArrayNode)) {
      throw new ConfigException(path + " is a list, not " + kind(existing));
    }
    ArrayNode list = existing instanceof ArrayNode array ? array : parent.putArray(leaf);
    list.add(RecordSettings.written(YAML, item));
    return this;
  }

  /**
   * Sets one setting from text, as an environment variable or a command-line flag gives it: a list
   * setting ({@code indexes}) is comma-separated.
   */
  ConfigBuilder putText(String path, String value) {
    String[] parts = path.split("\\.");
    ObjectNode parent = parent(path, parts);
    String leaf = parts[parts.length - 1];
    if (leaf.equals("indexes")) {
      ArrayNode list = parent.putArray(leaf);
      for (String item : value.split(",")) {
        if (!item.isBlank()) {
          list.add(item.trim());
        }
      }
    } else {
      parent.put(leaf, value);
    }
    return this;
  }

  /** The mapping holding the last part of {@code path}, made where missing. */
  private ObjectNode parent(String path, String[] parts) {
    ObjectNode node = tree;
    for (int i = 0; i < parts.length - 1; i++) {
      JsonNode child = node.get(parts[i]);
      if (child instanceof ObjectNode object) {
        node = object;
      } else if (child == null || child.isNull()) {
        node = node.putObject(parts[i]);
      } else {
        throw new ConfigException(
            String.join(".", java.util.Arrays.copyOf(parts, i + 1))
                + " is a mapping, not "
                + kind(child)
                + " (setting "
                + path
                + ")");
      }
    }
    return node;
  }

  private static String kind(JsonNode node) {
    return node.isArray() ? "a list" : node.isObject() ? "a mapping" : "'" + node.asText() + "'";
  }

  /**
   * The configuration.
   *
   * @throws ConfigException naming the setting that is wrong
   */
  public QuarryConfig build() {
    return build("configuration");
  }

  /** As {@link #build()}, the message starting with {@code where} (the file's name). */
  QuarryConfig build(String where) {
    try {
      return YAML.treeToValue(tree, QuarryConfig.class);
    } catch (JsonProcessingException e) {
      Throwable cause = e.getCause() instanceof IllegalArgumentException ? e.getCause() : e;
      String message =
          cause instanceof JsonProcessingException json
              ? settingPath(json) + json.getOriginalMessage()
              : cause.getMessage();
      throw new ConfigException(where + ": " + message, e);
    }
  }

  /**
   * The path of the setting a value of the wrong type or an unknown name was found at ({@code
   * storage.compaction.idleMillis: }), or nothing when Jackson does not say.
   */
  private static String settingPath(JsonProcessingException error) {
    if (!(error instanceof com.fasterxml.jackson.databind.JsonMappingException mapping)
        || mapping.getPath().isEmpty()) {
      return "";
    }
    StringBuilder path = new StringBuilder();
    for (com.fasterxml.jackson.databind.JsonMappingException.Reference step : mapping.getPath()) {
      if (step.getFieldName() != null) {
        path.append(path.isEmpty() ? "" : ".").append(step.getFieldName());
      } else if (step.getIndex() >= 0) {
        path.append('[').append(step.getIndex()).append(']');
      }
    }
    return path.isEmpty() ? "" : path + ": ";
  }
}
