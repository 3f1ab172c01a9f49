package io.quarry.server.search;

import io.quarry.codecs.store.AsciiText;
import io.quarry.codecs.store.StoredEvent;
import io.quarry.codecs.store.TextRegion;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.ql.exec.RexExtraction;
import io.quarry.server.sourcetype.AccessLogSpans;
import java.nio.charset.StandardCharsets;

/**
 * One field's cells cut straight out of an event's decoded journal bytes into a page's block, no
 * {@code String} made: by a fused {@code rex}'s one-pass matcher, by the built-in access-log
 * parser, or by automatic key=value extraction — each only where it gives what the sourcetype's
 * full extraction ({@link FieldExtractor}) would, which {@link EventColumn} asks for otherwise. Its
 * time is the search's extraction time ({@link EventReading#extraction}). Not thread-safe: one per
 * column.
 */
final class EventBytesCells {
  private final EventReading reading;
  private final String name;
  private final KeyValueCells keyValues; // the field's key=value cells
  private final KeyValueSourcetypes sourcetypes;
  private final int accessLogField; // its index among the access-log fields, or -1

  EventBytesCells(EventReading reading, String name) {
    this.reading = reading;
    this.name = name;
    this.keyValues = new KeyValueCells(name.getBytes(StandardCharsets.US_ASCII));
    this.sourcetypes = new KeyValueSourcetypes(reading.sourcetypes(), name);
    this.accessLogField = AccessLogSpans.field(name);
  }

  /** Whether the field is one the built-in access-log extraction gives. */
  boolean accessLogField() {
    return accessLogField >= 0;
  }

  /**
   * The field from the one {@code rex} that may set it, by the one-pass matcher over the event's
   * bytes, copied into {@code texts}: the span it appended, {@link RexExtraction#NO_SPAN} when the
   * rex did not match (the event's own value applies), {@link RexExtraction#UNDECIDED_SPAN} when
   * that matcher cannot tell (nothing appended).
   */
  long rexSpan(StoredEvent event, RexExtraction rex, BytesBlock.Builder texts) {
    if (!(reading.rawText(event) instanceof AsciiText raw)) {
      return RexExtraction.UNDECIDED_SPAN;
    }
    long started = reading.extraction().start();
    long span = rex.span(raw.array(), raw.offset(), raw.length());
    reading.extraction().stop(started);
    if (span >= 0) {
      int start = (int) (span >>> 32);
      texts.append(raw.array(), raw.offset() + start, (int) span - start);
    }
    return span;
  }

  /**
   * The field by automatic key=value extraction over the event's bytes into {@code texts}, where
   * that is what the full extraction would find (neither the sourcetype nor JSON gives it); false
   * (nothing appended) when it is not.
   */
  boolean keyValues(StoredEvent event, BytesBlock.Builder texts) {
    if (sourcetypeExtracts(event.sourcetype())
        || !(reading.rawText(event) instanceof AsciiText raw)) {
      return false;
    }
    long started = reading.extraction().start();
    boolean appended =
        keyValues.append(texts, raw.array(), raw.offset(), raw.length(), event.textRegion());
    reading.extraction().stop(started);
    return appended;
  }

  /**
   * The field by key=value extraction over an ASCII text known not to be JSON-like (the run's probe
   * checked it), its block's texts lying in {@code region}.
   */
  void keyValuesNotJson(
      byte[] bytes, int offset, int length, TextRegion region, BytesBlock.Builder texts) {
    keyValues.appendNotJson(texts, bytes, offset, length, region);
  }

  /**
   * The field from the built-in access-log extraction into {@code texts}, cut out of the event's
   * bytes where the event's sourcetype uses it and its parser knows the line and finds the field
   * (the line is parsed once per event for all such columns); false when the ordinary extraction
   * answers.
   */
  boolean accessLog(StoredEvent event, BytesBlock.Builder texts) {
    AccessLogSpans accessLog = reading.accessLog(event);
    int start = accessLog != null ? accessLog.start(accessLogField) : -1;
    if (start < 0) {
      return false;
    }
    AsciiText raw = (AsciiText) reading.rawText(event);
    texts.append(raw.array(), raw.offset() + start, accessLog.end(accessLogField) - start);
    return true;
  }

  /**
   * Whether the event surely has no value of this field: none at index time, none its text could
   * give by key=value or JSON extraction ({@link StoredEvent#textLacks}), and its sourcetype's own
   * extraction cannot give it.
   */
  boolean textLacks(StoredEvent event) {
    return event.textLacks(name) && !sourcetypeExtracts(event.sourcetype());
  }

  /**
   * Whether the sourcetype leaves this field to anything but key=value over the text ({@link
   * KeyValueSourcetypes}): then the full extraction answers.
   */
  boolean sourcetypeExtracts(String sourcetypeName) {
    return sourcetypes.extracts(sourcetypeName);
  }
}
