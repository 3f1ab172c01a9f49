package io.quarry.server.search;

import io.quarry.codecs.store.EventFields;
import io.quarry.codecs.store.StoredEvent;
import io.quarry.codecs.tokens.Segmenter;
import io.quarry.ql.exec.Row;
import io.quarry.ql.exec.SearchTerm;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * An event as a row: default fields from storage, index-time fields, and search-time fields
 * extracted the first time a field outside those is asked for.
 */
final class EventRow implements Row {
  private final StoredEvent stored;
  private FieldExtractor extractor;
  private Set<String> terms;
  private String lowerRaw;

  private final Sourcetypes sourcetypes;
  private final ExtractionClock clock;
  private final boolean extract;

  EventRow(StoredEvent stored, Sourcetypes sourcetypes, ExtractionClock clock) {
    this(stored, sourcetypes, clock, true);
  }

  /**
   * As above; without {@code extract} only default and index-time fields have values ({@code
   * tstats}: nothing is read from the event's text).
   */
  EventRow(StoredEvent stored, Sourcetypes sourcetypes, ExtractionClock clock, boolean extract) {
    this.stored = stored;
    this.sourcetypes = sourcetypes;
    this.clock = clock;
    this.extract = extract;
  }

  @Override
  public List<Object> values(String field) {
    switch (field) {
      case EventFields.TIME:
        return List.of(stored.timeMicros());
      case EventFields.RAW:
        return List.of(stored.raw());
      case EventFields.HOST:
        return List.of(stored.host());
      case EventFields.SOURCE:
        return List.of(stored.source());
      case EventFields.SOURCETYPE:
        return List.of(stored.sourcetype());
      case EventFields.INDEX:
        return List.of(stored.index());
      default:
        List<String> indexed = stored.indexedField(field);
        if (indexed != null) {
          return List.copyOf(indexed);
        }
        if (!extract) {
          return List.of();
        }
        if (extractor == null) {
          extractor = new FieldExtractor(stored.raw(), sourcetypes.forName(stored.sourcetype()));
        }
        return clock.time(() -> extractor.values(field));
    }
  }

  @Override
  public CharSequence text(String field) {
    return field.equals(EventFields.RAW) ? stored.rawText() : null;
  }

  @Override
  public List<String> fieldNames() {
    List<String> names = new ArrayList<>(EventListing.DEFAULT_ORDER);
    names.addAll(stored.indexedFields().keySet());
    return names;
  }

  @Override
  public List<String> discoverableFieldNames() {
    List<String> names = fieldNames();
    if (extractor == null) {
      extractor = new FieldExtractor(stored.raw(), sourcetypes.forName(stored.sourcetype()));
    }
    for (String name : clock.time(extractor::names)) {
      if (!names.contains(name)) {
        names.add(name);
      }
    }
    return names;
  }

  @Override
  public boolean matchesTerm(SearchTerm term) {
    switch (term.directive()) {
      case TERM -> {
        // a * in TERM() goes through the linear Wildcard matcher, never a backtracking regex
        return term.pattern() != null
            ? Segmenter.anyMajorToken(stored.raw(), term.pattern()::matches)
            : Segmenter.anyMajorToken(stored.raw(), term.lowerCase()::equals);
      }
      case CASE -> {
        return matchesWord(term) && containsInOrder(stored.raw(), term.text());
      }
      case NONE -> {
        return matchesWord(term);
      }
    }
    throw new AssertionError(term.directive());
  }

  /**
   * Whether the parts of {@code pattern} between its {@code *}s occur in order, with their case.
   */
  private static boolean containsInOrder(String raw, String pattern) {
    int at = 0;
    for (String part : pattern.split("\\*")) {
      if (part.isEmpty()) {
        continue;
      }
      int found = raw.indexOf(part, at);
      if (found < 0) {
        return false;
      }
      at = found + part.length();
    }
    return true;
  }

  private boolean matchesWord(SearchTerm term) {
    if (term.pattern() != null) {
      return terms().stream().anyMatch(term.pattern()::matches);
    }
    if (lowerRaw == null) {
      lowerRaw = stored.raw().toLowerCase(Locale.ROOT);
    }
    if (!term.phrase() && Segmenter.isSingleTerm(term.text())) {
      return Segmenter.containsTerm(lowerRaw, term.lowerCase());
    }
    return lowerRaw.contains(term.lowerCase());
  }

  private Set<String> terms() {
    if (terms == null) {
      terms = Segmenter.terms(stored.raw());
    }
    return terms;
  }
}
