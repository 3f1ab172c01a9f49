package io.quarry.server.sourcetype;

import io.quarry.ql.exec.KeyValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One index-time extraction of a sourcetype: fields taken from an event as it is stored, so they
 * are searchable by term and typed (see {@code storage.indexes.<index>.fields}). Earlier
 * extractions win: a field one of them set is not overwritten by a later one.
 */
public sealed interface IndexExtraction {
  /** Adds the event's fields to {@code into}. */
  void extract(String raw, Map<String, List<String>> into);

  /**
   * Compiles one extraction's settings; a {@code kv} extraction reads quoted values as {@code
   * kvMode} does at search time, so an event has one reading of its pairs.
   */
  static IndexExtraction from(SourcetypeSettings.IndexExtractionSettings settings, KvMode kvMode) {
    String type = settings.type() == null ? "" : settings.type();
    return switch (type) {
      case "json" -> new Json();
      case "kv" -> new KeyValue(kvMode.escapes());
      case "regex" -> {
        if (settings.regex() == null) {
          throw new IllegalArgumentException("an indexExtraction of type regex needs 'regex'");
        }
        Regex regex = new Regex(NamedGroups.compile(settings.regex(), "indexExtractions"));
        yield settings.regex().equals(AccessLogParser.INDEX_REGEX) ? new AccessLog(regex) : regex;
      }
      default ->
          throw new IllegalArgumentException(
              "indexExtractions type must be json, kv or regex, not '" + type + "'");
    };
  }

  /** Named groups of the first match. */
  record Regex(NamedGroups groups) implements IndexExtraction {
    @Override
    public void extract(String raw, Map<String, List<String>> into) {
      groups.extract(raw, (field, value) -> into.putIfAbsent(field, List.of(value)));
    }
  }

  /**
   * The built-in access-log index extraction ({@link AccessLogParser#INDEX_REGEX}) through the
   * hand-written parser, which answers for every well-formed line with the regex's values ({@code
   * AccessLogParserTest}); the regex decides the other lines. Besides being cheaper, it keeps
   * ingest from running {@code java.util.regex} on every event, which also slowed every later
   * search-time {@code rex} in the same JVM: the JIT compiles the regex engine's shared node
   * classes for the types it has seen, and this expression's made them megamorphic.
   */
  record AccessLog(Regex regex) implements IndexExtraction {
    @Override
    public void extract(String raw, Map<String, List<String>> into) {
      if (!AccessLogParser.indexFields(raw, into)) {
        regex.extract(raw, into);
      }
    }
  }

  /** Every scalar of a JSON object event; arrays give several values. */
  record Json() implements IndexExtraction {
    @Override
    public void extract(String raw, Map<String, List<String>> into) {
      JsonFields.flatten(raw)
          .forEach(
              (field, values) -> {
                if (!into.containsKey(field)) {
                  List<String> texts = new ArrayList<>(values.size());
                  for (Object value : values) {
                    texts.add(String.valueOf(value));
                  }
                  into.put(field, texts);
                }
              });
    }
  }

  /**
   * {@code key=value} and {@code key="quoted value"} pairs, {@code \"} and {@code \\} escapes in a
   * quoted value when {@code escapes} (the sourcetype's {@code kvMode: auto_escaped}): as a search
   * reads the same text, or a pair one reading hides inside a quoted value would be a field by the
   * other.
   */
  record KeyValue(boolean escapes) implements IndexExtraction {
    @Override
    public void extract(String raw, Map<String, List<String>> into) {
      KeyValues.extract(raw, escapes)
          .forEach(
              (field, values) -> {
                if (!into.containsKey(field)) {
                  into.put(field, values);
                }
              });
    }
  }
}
