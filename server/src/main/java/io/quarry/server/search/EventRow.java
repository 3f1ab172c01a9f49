package io.quarry.server.search;

import io.quarry.codecs.store.EventFields;
import io.quarry.codecs.store.StoredEvent;
import io.quarry.ql.exec.Row;
import io.quarry.ql.exec.SearchTerm;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.ArrayList;
import java.util.List;

/**
 * An event as a row: default fields from storage, index-time fields, and search-time fields
 * extracted the first time a field outside those is asked for.
 */
final class EventRow implements Row {
  private final StoredEvent stored;
  private FieldExtractor extractor;
  private RawTerms.Text rawTerms;

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
    if (rawTerms == null) {
      rawTerms = new RawTerms.Text(stored.raw());
    }
    return rawTerms.matches(term);
  }
}
