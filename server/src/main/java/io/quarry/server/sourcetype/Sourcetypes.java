package io.quarry.server.sourcetype;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.quarry.codecs.store.IndexedFieldType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The sourcetypes a server knows: the built-ins of {@code builtin-sourcetypes.yml}, with the
 * configuration's {@code sourcetypes} laid over them setting by setting (a configured sourcetype of
 * a built-in's name changes only the settings it gives). A name neither defines gets the generic
 * rules: line breaking, automatic timestamps, no extraction beyond the automatic key=value and JSON
 * ones every search applies.
 */
public final class Sourcetypes {
  static final String BUILT_IN_RESOURCE = "builtin-sourcetypes.yml";

  /** Group names that differ from Splunk's field names (Java group names cannot hold '_'). */
  public static final Map<String, String> GROUP_TO_FIELD =
      Map.of("reqtime", "req_time", "uripath", "uri_path", "uriquery", "uri_query");

  private static final int MAX_GENERIC = 10_000;

  private static final Map<String, SourcetypeSettings> BUILT_IN_SETTINGS = loadBuiltIns();

  private static final Sourcetypes BUILT_IN = new Sourcetypes(Map.of());

  private final Map<String, Sourcetype> known;
  private final ConcurrentMap<String, Sourcetype> generic = new ConcurrentHashMap<>();

  /**
   * @param configured sourcetypes from configuration
   * @throws IllegalArgumentException naming the sourcetype and setting that is wrong
   */
  public Sourcetypes(Map<String, SourcetypeSettings> configured) {
    Map<String, SourcetypeSettings> merged = new LinkedHashMap<>(BUILT_IN_SETTINGS);
    configured.forEach(
        (name, settings) ->
            merged.merge(name, settings, (builtIn, own) -> builtIn.overriddenBy(own)));
    Map<String, Sourcetype> compiled = new LinkedHashMap<>();
    merged.forEach((name, settings) -> compiled.put(name, Sourcetype.from(name, settings)));
    this.known = Collections.unmodifiableMap(compiled);
  }

  /** The built-in sourcetypes alone. */
  public static Sourcetypes builtIn() {
    return BUILT_IN;
  }

  public Sourcetype forName(String name) {
    Sourcetype sourcetype = known.get(name);
    if (sourcetype != null) {
      return sourcetype;
    }
    if (generic.size() >= MAX_GENERIC) {
      generic.clear(); // names are free text from clients: do not grow without bound
    }
    return generic.computeIfAbsent(name, n -> Sourcetype.from(n, SourcetypeSettings.defaults()));
  }

  /** The sourcetypes defined by name, built-in and configured. */
  public Map<String, Sourcetype> known() {
    return known;
  }

  /**
   * The types every sourcetype declares for index-time fields, for the indexes to apply.
   *
   * @throws IllegalArgumentException when two sourcetypes declare one field with different types
   */
  public Map<String, IndexedFieldType> declaredFieldTypes() {
    Map<String, IndexedFieldType> types = new HashMap<>();
    Map<String, String> declaredBy = new HashMap<>();
    for (Sourcetype sourcetype : known.values()) {
      sourcetype
          .fieldTypes()
          .forEach(
              (field, type) -> {
                IndexedFieldType before = types.putIfAbsent(field, type);
                if (before != null && before != type) {
                  throw new IllegalArgumentException(
                      "field '"
                          + field
                          + "' is declared "
                          + before.configName()
                          + " by sourcetype '"
                          + declaredBy.get(field)
                          + "' and "
                          + type.configName()
                          + " by sourcetype '"
                          + sourcetype.name()
                          + "'; index-time field types are per index, so they must agree");
                }
                declaredBy.putIfAbsent(field, sourcetype.name());
              });
    }
    return types;
  }

  /** The field name for a named group of an extraction. */
  public static String fieldName(String group) {
    return GROUP_TO_FIELD.getOrDefault(group, group);
  }

  private static Map<String, SourcetypeSettings> loadBuiltIns() {
    ObjectMapper yaml =
        new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    try (InputStream in = Sourcetypes.class.getResourceAsStream(BUILT_IN_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(BUILT_IN_RESOURCE + " is missing from the class path");
      }
      return yaml.readValue(in, new TypeReference<LinkedHashMap<String, SourcetypeSettings>>() {});
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + BUILT_IN_RESOURCE, e);
    }
  }
}
