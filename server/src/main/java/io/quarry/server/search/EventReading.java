package io.quarry.server.search;

import io.quarry.codecs.store.AsciiText;
import io.quarry.codecs.store.StoredEvent;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.RexCommand;
import io.quarry.ql.exec.RexExtraction;
import io.quarry.server.sourcetype.AccessLogSpans;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * What the {@link EventColumn}s of one {@link EventPages} share while they read an event: the
 * event's {@code _raw} text, read from the journal once however many columns scan it; the fused
 * {@code rex} commands and this event's match of each, made once; the access-log parse of its line;
 * the sourcetypes that extract its search-time fields; and the clock that times that extraction.
 */
final class EventReading {
  private final Sourcetypes sourcetypes;
  private final boolean extracts; // false for tstats: only default and index-time fields
  private final RexExtraction[] rexes; // the fused rex commands, in pipeline order
  private final List<java.util.Map<String, Object>> assigned; // per rex, this event's match
  private final ExtractionClock extraction = new ExtractionClock();
  private boolean typed;

  private StoredEvent rawOf; // the event raw was read for
  private CharSequence raw;

  private final AccessLogSpans accessLog = new AccessLogSpans();
  private StoredEvent spannedEvent; // the event accessLog parsed (or found not to apply to)
  private boolean spanned;
  private String accessLogSourcetype;
  private boolean sourcetypeParsesAccessLogs;

  EventReading(
      Sourcetypes sourcetypes,
      boolean indexedFieldsOnly,
      List<Command> fused,
      BooleanSupplier stopped) {
    this.sourcetypes = sourcetypes;
    this.extracts = !indexedFieldsOnly;
    this.rexes = new RexExtraction[fused.size()];
    this.assigned = new ArrayList<>(fused.size());
    for (int i = 0; i < rexes.length; i++) {
      rexes[i] = new RexExtraction((RexCommand) fused.get(i), stopped);
      assigned.add(null);
    }
  }

  /** The sourcetypes whose extractions give an event's search-time fields. */
  Sourcetypes sourcetypes() {
    return sourcetypes;
  }

  /** Whether search-time fields are extracted (not for {@code tstats}). */
  boolean extracts() {
    return extracts;
  }

  /** The fused {@code rex} commands, in pipeline order. */
  RexExtraction[] rexes() {
    return rexes;
  }

  /** The time spent extracting search-time fields, over every column. */
  ExtractionClock extraction() {
    return extraction;
  }

  /** Whether values keep the types extraction gives them ({@link EventPages#typedValues}). */
  boolean typed() {
    return typed;
  }

  void typedValues() {
    typed = true;
  }

  /** A new event: the fused {@code rex} commands have not matched it yet. */
  void nextEvent() {
    if (anyAssigned) { // most events have none: a fused rex's span is copied without a match map
      for (int i = 0; i < rexes.length; i++) {
        assigned.set(i, null);
      }
      anyAssigned = false;
    }
  }

  private boolean anyAssigned; // whether some rex's match of this event is in assigned

  /** The sourcetype's full extraction of the event's search-time fields. */
  FieldExtractor extractor(StoredEvent event) {
    return new FieldExtractor(event.raw(), sourcetypes.forName(event.sourcetype()));
  }

  /**
   * The value a fused {@code rex} leaves in {@code field} for this event — the last one of {@code
   * producers} that matched and set it — or null when none did.
   */
  Object rexValue(StoredEvent event, String field, int[] producers) {
    for (int p = producers.length - 1; p >= 0; p--) {
      int i = producers[p];
      java.util.Map<String, Object> match = assigned.get(i);
      if (match == null) {
        CharSequence raw = rawText(event);
        match = extraction.time(() -> rexes[i].assignments(raw));
        assigned.set(i, match);
        anyAssigned = true;
      }
      Object value = match.get(field);
      if (value != null) {
        return value;
      }
    }
    return null;
  }

  /**
   * The event's {@code _raw} as characters, read from the journal once per event however many
   * columns scan it (a view of the decoded block for an ASCII event, valid until the next event).
   */
  CharSequence rawText(StoredEvent event) {
    if (rawOf != event) {
      rawOf = event;
      raw = event.rawText();
    }
    return raw;
  }

  /**
   * The built-in access-log parse of the event's line, made once per event for every column that
   * asks, where its sourcetype uses that extraction and the parser knows the line; null otherwise.
   */
  AccessLogSpans accessLog(StoredEvent event) {
    if (spannedEvent != event) {
      spannedEvent = event;
      String sourcetypeName = event.sourcetype();
      if (sourcetypeName != accessLogSourcetype) { // the same String for a segment's sourcetype
        accessLogSourcetype = sourcetypeName;
        sourcetypeParsesAccessLogs = sourcetypes.forName(sourcetypeName).parsesAccessLogs();
      }
      long started = extraction.start();
      spanned =
          sourcetypeParsesAccessLogs
              && rawText(event) instanceof AsciiText raw
              && accessLog.parse(raw);
      extraction.stop(started);
    }
    return spanned ? accessLog : null;
  }
}
