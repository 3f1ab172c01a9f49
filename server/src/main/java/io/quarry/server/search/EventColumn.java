package io.quarry.server.search;

import io.quarry.codecs.store.EventFields;
import io.quarry.codecs.store.EventRun;
import io.quarry.codecs.store.StoredEvent;
import io.quarry.codecs.store.TextRegion;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.ql.engine.DictionaryBlockBuilder;
import io.quarry.ql.exec.RexExtraction;
import io.quarry.ql.exec.Values;
import java.util.List;

/**
 * One field's values for the page {@link EventPages} builds, appended event by event from the
 * cheapest place that gives them: a fused {@code rex}'s match over the journal's bytes, the default
 * fields, an index-time field's ordinal or values, the access-log or key=value scan of the event's
 * bytes (those cut from the bytes: {@link EventBytesCells}), else the sourcetype's full extraction
 * ({@link FieldExtractor}). {@code _time} is a timestamp column, a default field a dictionary
 * column, every other field a string column (a multivalue a position with several values), typed as
 * {@code PageBuilder} types values where {@link EventReading#typed} asks.
 */
final class EventColumn {
  private static final long UNDECIDED_SPAN = RexExtraction.UNDECIDED_SPAN;

  private final EventReading reading;
  private final int pageSize;
  private int position; // of the event being appended
  final String name;
  private final int kind; // which default field it is, else OTHER: decided once, not per event
  private static final int OTHER = 0, TIME = 1, RAW = 2, HOST = 3, SOURCE = 4, SOURCETYPE = 5;
  private static final int INDEX = 6;
  private final int[] producers; // the fused rex commands that may set this field
  private final EventBytesCells fromBytes; // the cells cut from the event's bytes
  private LongBlock.Builder times;
  private BytesBlock.Builder texts;
  private final DictionaryBlockBuilder defaults; // host, source, sourcetype, index: few values
  private final OrdinalColumn ordinals; // a field that may be a keyword index-time one, else null
  private boolean plain; // this page's values went plain after some by ordinal
  private final TypedCells typed; // the cells that are not text, where reading.typed()

  /** {@code own}: the event's own values, never a fused {@code rex}'s (the filter's columns). */
  EventColumn(EventReading reading, String name, int pageSize, boolean own) {
    this.reading = reading;
    this.pageSize = pageSize;
    this.name = name;
    this.fromBytes = new EventBytesCells(reading, name);
    this.typed = new TypedCells(name, pageSize);
    this.kind =
        switch (name) {
          case EventFields.TIME -> TIME;
          case EventFields.RAW -> RAW;
          case EventFields.HOST -> HOST;
          case EventFields.SOURCE -> SOURCE;
          case EventFields.SOURCETYPE -> SOURCETYPE;
          case EventFields.INDEX -> INDEX;
          default -> OTHER;
        };
    this.producers =
        own
            ? new int[0]
            : java.util.stream.IntStream.range(0, reading.rexes().length)
                .filter(i -> reading.rexes()[i].fields().contains(name))
                .toArray();
    this.defaults = defaultField() ? new DictionaryBlockBuilder(pageSize) : null;
    this.ordinals =
        kind == OTHER && producers.length == 0 ? new OrdinalColumn(name, pageSize) : null;
    reset(pageSize);
  }

  /** Whether the column holds the event's own values only: no fused {@code rex} may set it. */
  boolean own() {
    return producers.length == 0;
  }

  private void reset(int pageSize) {
    plain = false;
    if (kind == TIME) {
      times = LongBlock.builder(DataType.TIMESTAMP, pageSize);
    } else if (defaults == null) {
      texts = ordinals == null ? BytesBlock.builder(pageSize) : null; // made when needed
    }
  }

  /**
   * Whether this event's value went in by its ordinal; when not, the page's values so far are made
   * plain and the page goes on plain.
   */
  private boolean appendedByOrdinal(StoredEvent event) {
    if (ordinals == null || plain) {
      return false;
    }
    if (ordinals.append(event)) {
      return true;
    }
    if (fromBytes.textLacks(event)) {
      ordinals.appendNull();
      return true;
    }
    plain = true;
    texts = BytesBlock.builder(pageSize);
    ordinals.copyInto(texts);
    return false;
  }

  Block build() {
    Block block =
        kind == TIME
            ? times.build()
            : defaults != null
                ? defaults.build(pageSize)
                : ordinals != null && !plain ? ordinals.build() : texts.build();
    reset(pageSize);
    typed.built(block);
    return block;
  }

  /**
   * The column of the page last built over its positions {@code kept[0, count)} (all {@code count}
   * when {@code kept} is null), typed over them alone ({@link TypedCells#typed}); null when none of
   * those cells was typed.
   */
  Block kept(int[] kept, int count) {
    return typed.typed(kept, count);
  }

  /**
   * Whether the column is a default field other than {@code _time} and {@code _raw}: one of a
   * handful of values per page, written as a dictionary block — unless a fused {@code rex} may set
   * it (never: {@link EventPages#fuses} takes none that sets a default field).
   */
  private boolean defaultField() {
    return producers.length == 0
        && (kind == HOST || kind == SOURCE || kind == SOURCETYPE || kind == INDEX);
  }

  private void appendDefault(String value) {
    if (defaults != null) {
      defaults.append(value);
    } else {
      texts.append(value);
    }
  }

  /**
   * Appends the values of the event at {@code position} of the page; returns its extraction, made
   * if this column needed it.
   */
  FieldExtractor append(StoredEvent event, FieldExtractor extracted, int position) {
    long span =
        producers.length == 1
            ? fromBytes.rexSpan(event, reading.rexes()[producers[0]], texts)
            : UNDECIDED_SPAN;
    return append(event, extracted, position, span);
  }

  /**
   * As {@link #append(StoredEvent, FieldExtractor, int)} with the one fused {@code rex}'s {@code
   * span} over the event already known (a run's loop matched it: not matched again).
   */
  FieldExtractor append(StoredEvent event, FieldExtractor extracted, int position, long span) {
    this.position = position;
    if (span >= 0) {
      return extracted; // appended
    }
    if (span == UNDECIDED_SPAN && producers.length > 0) {
      Object value = reading.rexValue(event, name, producers);
      if (value != null) {
        appendObject(value);
        return extracted;
      }
    }
    switch (kind) {
      case TIME -> times.append(event.timeMicros());
      case RAW -> texts.append(event.raw());
      case HOST -> appendDefault(event.host());
      case SOURCE -> appendDefault(event.source());
      case SOURCETYPE -> appendDefault(event.sourcetype());
      case INDEX -> appendDefault(event.index());
      default -> {
        if (appendedByOrdinal(event)) {
          return extracted;
        }
        List<String> indexed = event.indexedField(name);
        if (indexed != null) {
          appendValues(indexed);
        } else if (!reading.extracts() || fromBytes.textLacks(event)) {
          texts.appendNull(); // no value, and none the text could give: not read
        } else if (fromBytes.accessLogField() && fromBytes.accessLog(event, texts)) {
          return extracted; // appended
        } else if (extracted == null && !fromBytes.keyValues(event, texts)) {
          extracted = reading.extractor(event);
          appendExtracted(extracted);
        } else if (extracted != null) {
          appendExtracted(extracted);
        }
      }
    }
    return extracted;
  }

  /** Whether this is the {@code _time} column. */
  boolean time() {
    return kind == TIME;
  }

  /** The one fused {@code rex} that may set this field, or null (none, or several). */
  RexExtraction soleRex() {
    return producers.length == 1 ? reading.rexes()[producers[0]] : null;
  }

  /**
   * Whether the field is a search-time one found by key=value extraction: no default field, no
   * fused {@code rex} sets it, no access-log or date field.
   */
  boolean keyValueField() {
    return kind == OTHER
        && producers.length == 0
        && !fromBytes.accessLogField()
        && reading.extracts()
        && !DateFields.is(name);
  }

  /**
   * Groups by ordinal ({@link PageShape#byOrdinal}): pages of a segment whose dictionary of the
   * field the scan decoded whole hold its segment ordinals ({@link OrdinalColumn#groupByOrdinal});
   * false (nothing changed) when the field is not read by ordinal here.
   */
  boolean groupByOrdinal(SegmentDictionaryBlocks blocks) {
    if (ordinals == null) {
      return false;
    }
    ordinals.groupByOrdinal(blocks);
    return true;
  }

  /** The slice ended: a whole dictionary its column of ordinals held is let go. */
  void close() {
    if (ordinals != null) {
      ordinals.close();
    }
  }

  /**
   * Whether the field may be a keyword index-time one read by its segment ordinals: no default
   * field, no fused {@code rex} sets it.
   */
  boolean byOrdinal() {
    return ordinals != null;
  }

  /**
   * Appends events {@code [from, from + count)} of {@code run}, a run whose block {@link
   * EventRun#hasOrdinals has ordinals} of the field, each its one value — by ordinal while the page
   * is, else as text — or none: a null, for an event the block's codes say has no value and whose
   * text cannot give one ({@link io.quarry.codecs.store.StoredEvent#textLacks}; {@link
   * RunFill#answers} asked its sourcetype).
   */
  void appendOrdinals(EventRun run, int from, int count) {
    Object scope = run.ordinalScope();
    OrdinalColumn.Texts lookup =
        new OrdinalColumn.Texts() {
          @Override
          public String text(String field, long ordinal) {
            return run.ordinalText(field, ordinal);
          }

          @Override
          public String[] whole(String field) {
            return run.ordinalTexts(field);
          }
        };
    for (int i = 0; i < count; i++) {
      long ordinal = run.ordinal(name, from + i);
      if (ordinal < 0) {
        if (plain) {
          texts.appendNull();
        } else {
          ordinals.appendNull();
        }
      } else if (plain || !ordinals.append(ordinal, scope, lookup)) {
        goPlain();
        texts.append(run.ordinalText(name, ordinal));
      }
    }
  }

  void appendTime(long micros) {
    times.append(micros);
  }

  void appendBytes(byte[] bytes, int offset, int length) {
    texts.append(bytes, offset, length);
  }

  /** The page's values from here on plain (a block run holds no index-time value of the field). */
  void goPlain() {
    if (ordinals != null && !plain) {
      plain = true;
      texts = BytesBlock.builder(pageSize);
      ordinals.copyInto(texts);
    }
  }

  /**
   * The field by key=value extraction over an ASCII text known not to be JSON-like (the run's probe
   * checked it), its block's texts lying in {@code region}.
   */
  void appendKeyValues(byte[] bytes, int offset, int length, TextRegion region) {
    fromBytes.keyValuesNotJson(bytes, offset, length, region, texts);
  }

  /**
   * Whether the sourcetype leaves this field to anything but key=value over the text ({@link
   * KeyValueSourcetypes}): then the full extraction answers.
   */
  boolean sourcetypeExtracts(String sourcetypeName) {
    return fromBytes.sourcetypeExtracts(sourcetypeName);
  }

  private void appendObject(Object value) {
    if (value instanceof List<?> list) {
      appendValues(List.copyOf(list));
    } else {
      texts.append(Values.toText(value));
    }
  }

  private void appendExtracted(FieldExtractor extracted) {
    appendValues(reading.extraction().time(() -> extracted.values(name)));
  }

  private void appendValues(List<?> values) {
    if (reading.typed()) {
      typed.keep(position, values);
    }
    switch (values.size()) {
      case 0 -> texts.appendNull();
      case 1 -> texts.append(Values.toText(values.get(0)));
      default -> {
        texts.beginPositionEntry();
        for (Object value : values) {
          texts.append(Values.toText(value));
        }
        texts.endPositionEntry();
      }
    }
  }
}
