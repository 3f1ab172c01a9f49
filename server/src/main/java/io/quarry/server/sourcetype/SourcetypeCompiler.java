package io.quarry.server.sourcetype;

import io.quarry.codecs.store.IndexedFieldType;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@link SourcetypeSettings} checked, value by value, and compiled into a {@link Sourcetype}: every
 * wrong value is an {@link IllegalArgumentException} naming the sourcetype, the setting and why.
 */
final class SourcetypeCompiler {
  private SourcetypeCompiler() {}

  static Sourcetype compile(String name, SourcetypeSettings settings) {
    try {
      Optional<Pattern> lineBreaker = pattern(settings.lineBreaker(), "lineBreaker");
      if (lineBreaker.isPresent() && lineBreaker.get().matcher("").groupCount() < 1) {
        throw new IllegalArgumentException(
            "lineBreaker needs a capturing group: the text it captures separates events");
      }
      int truncate =
          settings.truncate() == null ? Sourcetype.DEFAULT_TRUNCATE : settings.truncate();
      if (truncate < 0) {
        throw new IllegalArgumentException("truncate must be 0 (no limit) or more");
      }
      KvMode kvMode = KvMode.fromName(settings.kvMode());
      return new Sourcetype(
          name,
          settings.description() == null ? "" : settings.description(),
          lineBreaker,
          pattern(settings.breakOnlyBefore(), "breakOnlyBefore"),
          positive(settings.maxLines(), Sourcetype.DEFAULT_MAX_LINES, "maxLines"),
          truncate,
          new EventTime(timestampRule(settings), Optional.ofNullable(settings.timestampField())),
          indexExtractions(settings, kvMode),
          fieldTypes(settings),
          searchExtractions(settings),
          kvMode);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("sourcetype '" + name + "': " + e.getMessage(), e);
    }
  }

  private static TimestampRule timestampRule(SourcetypeSettings settings) {
    ZoneId zone = ZoneOffset.UTC;
    if (settings.timezone() != null) {
      try {
        zone = ZoneId.of(settings.timezone());
      } catch (DateTimeException e) {
        throw new IllegalArgumentException(
            "timezone '" + settings.timezone() + "' is not a zone id (e.g. Europe/Berlin, UTC)");
      }
    }
    return new TimestampRule(
        pattern(settings.timePrefix(), "timePrefix"),
        Optional.ofNullable(settings.timeFormat()).map(StrptimeFormat::compile),
        positive(
            settings.maxTimestampLookahead(),
            TimestampRule.DEFAULT_LOOKAHEAD,
            "maxTimestampLookahead"),
        zone);
  }

  private static List<IndexExtraction> indexExtractions(
      SourcetypeSettings settings, KvMode kvMode) {
    List<IndexExtraction> extractions = new ArrayList<>();
    if (settings.indexExtractions() != null) {
      for (SourcetypeSettings.IndexExtractionSettings extraction : settings.indexExtractions()) {
        extractions.add(IndexExtraction.from(extraction, kvMode));
      }
    }
    return extractions;
  }

  private static Map<String, IndexedFieldType> fieldTypes(SourcetypeSettings settings) {
    Map<String, IndexedFieldType> fieldTypes = new HashMap<>();
    if (settings.fields() != null) {
      settings
          .fields()
          .forEach(
              (field, type) -> {
                try {
                  fieldTypes.put(field, IndexedFieldType.fromName(type));
                } catch (IllegalArgumentException e) {
                  throw new IllegalArgumentException("fields." + field + ": " + e.getMessage(), e);
                }
              });
    }
    return fieldTypes;
  }

  private static List<NamedGroups> searchExtractions(SourcetypeSettings settings) {
    List<NamedGroups> extractions = new ArrayList<>();
    if (settings.searchExtractions() != null) {
      for (String regex : settings.searchExtractions()) {
        extractions.add(NamedGroups.compile(regex, "searchExtractions"));
      }
    }
    return extractions;
  }

  private static Optional<Pattern> pattern(String regex, String setting) {
    if (regex == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Pattern.compile(regex));
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          setting + " is not a valid regular expression: " + e.getDescription() + " in " + regex);
    }
  }

  private static int positive(Integer value, int fallback, String setting) {
    if (value == null) {
      return fallback;
    }
    if (value < 1) {
      throw new IllegalArgumentException(setting + " must be at least 1, not " + value);
    }
    return value;
  }
}
