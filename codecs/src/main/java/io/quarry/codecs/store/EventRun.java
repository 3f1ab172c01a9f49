package io.quarry.codecs.store;

import io.quarry.codecs.block.EventBlock;
import java.io.IOException;

/**
 * A run of consecutive events of one block that all lie in the scan's range (the block decoded only
 * when its texts or times are first read), handed to an {@link EventVisitor} that {@link
 * EventVisitor#takesRuns takes runs} instead of one {@link StoredEvent} per event: a visitor
 * filling columns reads the block's texts (their offsets into the decoded bytes, the block's one
 * ASCII answer) and, only if asked, its times for the run in one loop per column. Valid during the
 * {@link EventVisitor#visit(EventRun)} call only; positions are {@code [0, size())}, newest first
 * as the block holds them.
 */
public final class EventRun {
  private final BlockEvents events;
  private EventBlock block; // decoded when a column first reads the run's texts or times
  private final int from;
  private final int size;
  private int visited; // of the run's events, by the visitor

  EventRun(BlockEvents events, int from, int size) {
    this.events = events;
    this.from = from;
    this.size = size;
    this.visited = size;
  }

  /** The decoded block, decoded on first use: a run whose columns read neither stays undecoded. */
  private EventBlock block() {
    if (block == null) {
      block = events.decodedBlock();
    }
    return block;
  }

  /**
   * Records that the visitor stopped the scan after visiting the run's first {@code events} events
   * (the scan counts only those as read); a run visited whole needs no call.
   */
  public void stoppedAfter(int events) {
    if (events < 0 || events > size) {
      throw new IllegalArgumentException(events + " events of a run of " + size);
    }
    visited = events;
  }

  /**
   * How many of the run's events the visitor visited: all, unless it {@link #stoppedAfter} some.
   */
  int visited() {
    return visited;
  }

  /** The number of events in the run. */
  public int size() {
    return size;
  }

  /** Event {@code i} of the run as a stored event, for what the run's loops do not answer. */
  public StoredEvent event(int i) {
    return events.eventOfUnknownTime(from + i);
  }

  /**
   * Event {@code i}'s time, epoch microseconds (the block's times decoded on first use: from its
   * payload's first bytes alone while nothing decoded the payload, {@link
   * BlockEvents#timesByPrefix}).
   */
  public long time(int i) {
    return block != null ? block.time(from + i) : events.time(from + i);
  }

  /** The decoded block's bytes, which {@link #textOffset} points into; not to be changed. */
  public byte[] bytes() {
    return block().bytes();
  }

  /** Where event {@code i}'s UTF-8 text starts in {@link #bytes()}. */
  public int textOffset(int i) {
    return block().rawOffset(from + i);
  }

  /**
   * Where the block's texts lie in {@link #bytes()}, for a loop over the run's texts: event {@code
   * i}'s text is {@code [bounds[first() + i], bounds[first() + i + 1])}; not to be changed.
   */
  public int[] textBounds() {
    return block().rawBounds();
  }

  /** The index of the run's first event in {@link #textBounds}. */
  public int first() {
    return from;
  }

  /** The length of event {@code i}'s UTF-8 text. */
  public int textLength(int i) {
    return block().rawLength(from + i);
  }

  /**
   * Event {@code i}'s text as characters in {@code view} (reused from event to event), for an
   * {@link #ascii} run; valid until the view is pointed elsewhere.
   */
  public AsciiText text(int i, AsciiText view) {
    EventBlock block = block();
    return view.reset(block.bytes(), block.rawOffset(from + i), block.rawLength(from + i));
  }

  /**
   * Whether every text of the block is ASCII (then a text's bytes are its characters); decodes the
   * block, so asked only once a column needs the texts.
   */
  public boolean ascii() {
    return events.allAscii();
  }

  /**
   * Where the block's texts lie, the same object its events' {@link StoredEvent#textRegion} give.
   */
  public TextRegion textRegion() {
    try {
      return events.textRegion();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Event {@code i}'s sourcetype. */
  public String sourcetype(int i) {
    return events.defaultField(from + i, EventFields.SOURCETYPE);
  }

  /**
   * The sourcetype of every event of the run when the block says at once that they share one (a
   * block is one ingest batch: one sourcetype, held in its doc values), else null: then ask {@link
   * #sourcetype} event by event.
   */
  public String soleSourcetype() {
    return events.soleDefaultField(EventFields.SOURCETYPE);
  }

  /**
   * Whether some event of the block may have index-time field {@code name}; a counted field is
   * answered from doc values without decoding the block.
   */
  public boolean mayHaveField(String name) {
    return events.hasField(name);
  }

  /**
   * Whether the block's index-time field {@code name} is a column of segment ordinals held outside
   * its payload ({@link BlockColumns}: every event of the block has one value, or none where its
   * codes say "no value", {@link BlockValueCodes#PARTIAL}), read from doc values without decoding
   * the block; then {@link #ordinal} gives each event's.
   */
  public boolean hasOrdinals(String name) {
    try {
      return events.hasOrdinals(name);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * The segment ordinal of event {@code i}'s value of {@code name} (a field it {@link #hasOrdinals
   * has ordinals} of), or {@link StoredEvent#NO_ORDINAL} when the event has none.
   */
  public long ordinal(String name, int i) {
    try {
      return events.keywordOrdinal(from + i, name);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * What the run's {@link #ordinal}s are of (the scan of one segment), as {@link StoredEvent}'s.
   */
  public Object ordinalScope() {
    return events.keywordScope();
  }

  /**
   * Every text of {@code name}'s {@link #ordinal}s by ordinal, once the scan decoded the segment's
   * dictionary of the field whole (the same array for every run of the segment's scan and its other
   * slices: not to be changed), else null — then {@link #ordinalText} gives them one at a time.
   */
  public String[] ordinalTexts(String name) {
    return events.keywordTexts(name);
  }

  /** The text of {@code ordinal}, an {@link #ordinal} of {@code name}. */
  public String ordinalText(String name, long ordinal) {
    try {
      return events.keywordText(name, ordinal);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
