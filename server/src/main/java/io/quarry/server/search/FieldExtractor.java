package io.quarry.server.search;

import io.quarry.ql.exec.KeyValues;
import io.quarry.server.sourcetype.JsonFields;
import io.quarry.server.sourcetype.KvMode;
import io.quarry.server.sourcetype.Sourcetype;
import io.quarry.server.sourcetype.XmlFields;
import java.util.List;
import java.util.Map;

/**
 * Search-time field extraction from one event's {@code _raw}, in Splunk's order of precedence: the
 * default datetime fields ({@link DateFields}, by name only), the sourcetype's extraction, then
 * JSON (when the event is a JSON object), then automatic {@code key=value} pairs, the last two as
 * the sourcetype's {@link KvMode} says (both for {@code auto}, pairs read escaped for {@code
 * auto_escaped}, JSON alone for {@code json}, an XML document's paths in JSON's place for {@code
 * xml}, neither for {@code none}). Each stage runs only when a field is asked for that the earlier
 * stages did not find, and at most once per event: a search for {@code status} over access logs
 * never runs the key=value scan, and one for {@code JSESSIONID} scans only for that key.
 */
final class FieldExtractor {

  private final String raw;
  private final Sourcetype sourcetype;
  private Map<String, List<Object>> bySourcetype;

  /** A JSON object's fields (or, {@code kvMode: xml}, an XML document's). */
  private Map<String, List<Object>> byDocument;

  private Map<String, List<Object>> byKeyValue; // every pair, once names() asked
  private Map<String, List<Object>> keyValueByField; // single keys asked by values()
  private Map<String, List<Object>> byDate; // date_hour …, when one is asked for

  FieldExtractor(String raw, Sourcetype sourcetype) {
    this.raw = raw;
    this.sourcetype = sourcetype;
  }

  /** The values of a field, or an empty list. */
  List<Object> values(String field) {
    List<Object> values;
    if (DateFields.is(field)) {
      if (byDate == null) {
        byDate = DateFields.of(raw, sourcetype);
      }
      values = byDate.get(field);
      if (values != null) {
        return values;
      }
    }
    if (bySourcetype != null || sourcetype.mayExtract(field)) {
      if (bySourcetype == null) {
        bySourcetype = sourcetypeFields();
      }
      values = bySourcetype.get(field);
      if (values != null) {
        return values;
      }
    }
    KvMode mode = sourcetype.kvMode();
    if (byDocument == null) {
      byDocument = documentFields();
    }
    values = byDocument.get(field);
    if (values != null) {
      return values;
    }
    if (!mode.readsPairs()) {
      return List.of();
    }
    if (byKeyValue != null) {
      return byKeyValue.getOrDefault(field, List.of());
    }
    // one field asked for: scan for that key only (a stats by JSESSIONID cuts out no other pair)
    if (keyValueByField == null) {
      keyValueByField = new java.util.HashMap<>(4);
    }
    return keyValueByField.computeIfAbsent(
        field, key -> List.<Object>copyOf(KeyValues.values(raw, key, mode.escapes())));
  }

  /** Every field the three stages extract, in precedence order (each stage runs once). */
  List<String> names() {
    if (bySourcetype == null) {
      bySourcetype = sourcetypeFields();
    }
    if (byDocument == null) {
      byDocument = documentFields();
    }
    if (byKeyValue == null) {
      byKeyValue = keyValueFields();
    }
    java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>(bySourcetype.keySet());
    names.addAll(byDocument.keySet());
    names.addAll(byKeyValue.keySet());
    return List.copyOf(names);
  }

  private Map<String, List<Object>> sourcetypeFields() {
    return sourcetype.extract(raw);
  }

  private Map<String, List<Object>> documentFields() {
    KvMode mode = sourcetype.kvMode();
    return mode.readsJson()
        ? JsonFields.flatten(raw)
        : mode.readsXml() ? XmlFields.flatten(raw) : Map.<String, List<Object>>of();
  }

  @SuppressWarnings("unchecked")
  private Map<String, List<Object>> keyValueFields() {
    KvMode mode = sourcetype.kvMode();
    if (!mode.readsPairs()) {
      return Map.of();
    }
    Map<String, ? extends List<?>> fields = KeyValues.extract(raw, mode.escapes());
    return (Map<String, List<Object>>) fields;
  }
}
