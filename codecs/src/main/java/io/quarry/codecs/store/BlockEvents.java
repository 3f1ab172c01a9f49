package io.quarry.codecs.store;

import io.quarry.codecs.block.EventBlock;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.StoredFields;

/**
 * The events of one decoded block document, for {@link StoredEvent}: an event's "document" is its
 * position in the block (newest first). Columns are decoded when first asked for, {@code _raw}
 * stays bytes in the block until a {@code String} is wanted, and an ASCII event's text is viewed in
 * place ({@link BlockTexts}). Events hold their block, so they stay readable after the scan moved
 * on (a visitor reading {@code _raw} at {@link EventVisitor#finish}).
 *
 * <p>A column the payload holds elsewhere (event block version 2: a field of which every event has
 * exactly one value, or since session 33 one value or none) is read from the block's doc values
 * through the scan's {@link BlockColumns} when first asked for — during the scan's visit, as the
 * event layout's doc values are.
 *
 * <p>A block opened {@link #unread} is decoded only when something needs its payload: its event
 * count comes from its doc values, and a field every event has at most one value of (its {@link
 * BlockValueCounts} add up to the event count, or its codes say "no value" where not) from {@link
 * BlockColumns}, so a scan whose visitor reads only such fields ({@code stats count by method,
 * status}) never decompresses the journal block. An event's time, {@code _raw}, a field held in the
 * payload, or a question about the block's columns decodes it.
 */
final class BlockEvents implements StoredEvent.Loader {
  private final String index;
  private final StoredFields journal; // where the payload is decoded from when first needed
  private EventBlock block; // null until the payload is decoded
  private final int count;
  private final BlockColumns elsewhere;
  private final int blockDoc;
  private ElsewhereColumns read; // the columns read from elsewhere, by field; made when first asked

  private BlockPayload payload; // the decoded payload's bytes, null until decoded

  private BlockEvents(
      String index, StoredFields journal, BlockColumns elsewhere, int doc, int count) {
    this.index = index;
    this.journal = journal;
    this.elsewhere = elsewhere;
    this.blockDoc = doc;
    this.count = count;
  }

  /**
   * Reads and opens block document {@code doc}; {@code elsewhere} reads the columns its payload
   * does not hold, from the same segment.
   *
   * @throws CorruptIndexException when the journal block or the event block is damaged
   */
  static BlockEvents read(String index, StoredFields journal, BlockColumns elsewhere, int doc)
      throws IOException {
    BlockEvents events = new BlockEvents(index, journal, elsewhere, doc, -1);
    events.decode();
    return events;
  }

  /**
   * Block document {@code doc} of {@code events} events (its {@value BlockDocuments#COUNT} doc
   * value), its payload decoded from {@code journal} only when first needed.
   */
  static BlockEvents unread(
      String index, StoredFields journal, BlockColumns elsewhere, int doc, int events) {
    return new BlockEvents(index, journal, elsewhere, doc, events);
  }

  /** Whether the block's payload was decoded. */
  boolean decoded() {
    return block != null;
  }

  /** The decoded payload, decoded now if it was not. */
  private EventBlock block() throws IOException {
    if (block == null) {
      decode();
    }
    return block;
  }

  private void decode() throws IOException {
    BlockPayload read = BlockPayload.read(journal, blockDoc);
    EventBlock opened = read.open();
    payload = read;
    if (count >= 0 && opened.count() != count) {
      release();
      throw new CorruptIndexException(
          "block has " + opened.count() + " events, its doc values say " + count,
          "doc " + blockDoc);
    }
    block = opened;
  }

  /** The decoded payload for a caller that cannot throw a checked exception. */
  EventBlock decodedBlock() {
    try {
      return block();
    } catch (IOException e) {
      throw unchecked(e);
    }
  }

  /** An I/O failure for a caller that cannot throw one; a corruption stays recognisable. */
  private static java.io.UncheckedIOException unchecked(IOException e) {
    return e instanceof CorruptIndexException corrupt
        ? new TimeOrderedScan.UncheckedCorruption(corrupt)
        : new java.io.UncheckedIOException(e);
  }

  /**
   * The column of {@code name} from the block's doc values without decoding its payload, or null
   * (the block is decoded, or its doc values do not give every event exactly one value of it).
   */
  private BlockColumns.Values counted(String name) throws IOException {
    return block != null ? null : read().counted(name, count);
  }

  private ElsewhereColumns read() {
    if (read == null) {
      read = new ElsewhereColumns(elsewhere, blockDoc);
    }
    return read;
  }

  /**
   * Hands the journal's decoded bytes back for its next block, when they were lent: only once
   * nothing reads this block's events any more (no event, value or view of them is kept), and at
   * most once.
   */
  void release() {
    if (payload != null) {
      payload.giveBack();
    }
  }

  /** Decodes the whole block, checking its grammar ({@link EventBlock#verify}). */
  void verify() throws IOException {
    block().verify();
  }

  /** The number of events. */
  int count() {
    return block != null ? block.count() : count;
  }

  /**
   * Has an undecoded block read its times, when first asked, from its payload's first bytes alone
   * ({@link BlockPrefixTimes}); {@code oldest} and {@code newest} are the block's times by its doc
   * values, which the times read are checked against.
   */
  void timesByPrefix(PrefixTimes reader, long oldest, long newest) {
    this.prefixTimes = new BlockPrefixTimes(reader, oldest, newest);
  }

  private BlockPrefixTimes prefixTimes; // null: times come from the decoded payload

  /** Event {@code i}'s time. */
  long time(int i) {
    try {
      return timeOf(i);
    } catch (IOException e) {
      throw unchecked(e);
    }
  }

  @Override
  public long timeOf(int doc) throws IOException {
    if (block == null && prefixTimes != null) {
      long[] times = prefixTimes.read(blockDoc, count);
      if (times != null) {
        return times[doc];
      }
      prefixTimes = null; // not by prefix: the whole decode below
    }
    return block().time(doc);
  }

  /** Event {@code i}. */
  StoredEvent event(int i) {
    return new StoredEvent(index, block.time(i), this, i);
  }

  /**
   * Event {@code i}, its time read from the payload only when asked for: also once the payload is
   * decoded, a block's times are decoded only if some event's time is asked (a {@code rex | stats
   * count by} reads texts alone).
   */
  StoredEvent eventOfUnknownTime(int i) {
    return new StoredEvent(index, StoredEvent.UNKNOWN_TIME, this, i);
  }

  /** The column of {@code name} the payload holds elsewhere, read when first asked for. */
  private BlockColumns.Values elsewhere(String name) throws IOException {
    return read().read(name, count());
  }

  /**
   * The last default field asked for and where its values are: a scan asks each event of the block
   * for the same field (its sourcetype), and two hash lookups per event and field were a few
   * percent of a search that extracts a key=value field.
   */
  private String defaultName;

  private BlockColumns.Values defaultElsewhere; // when the block holds it elsewhere
  private EventBlock.Column defaultColumn; // else its column here, null when no event has it

  @Override
  public String defaultField(int doc, String name) {
    try {
      if (name != defaultName) { // the same String for every event of a scan (a constant)
        BlockColumns.Values counted = counted(name);
        if (counted != null) {
          defaultElsewhere = counted;
          defaultColumn = null;
        } else {
          EventBlock block = block();
          defaultElsewhere = block.isElsewhere(name) ? elsewhere(name) : null;
          defaultColumn = defaultElsewhere == null ? block.column(name) : null;
        }
        defaultName = name;
      }
      if (defaultElsewhere != null) {
        String value = defaultElsewhere.value(doc);
        return value == null ? "" : value;
      }
      EventBlock.Column column = defaultColumn;
      return column == null || column.valueCount(doc) == 0 ? "" : column.value(column.code(doc, 0));
    } catch (IOException e) {
      throw unchecked(e);
    }
  }

  /**
   * The value of default field {@code name} (a sourcetype) that every event of the block has, when
   * the block's doc values say so at once (held elsewhere, one value counting every event), else
   * null — also for a column its payload holds — and then {@link #defaultField} answers event by
   * event.
   */
  String soleDefaultField(String name) {
    if (count() == 0) {
      return null;
    }
    defaultField(0, name); // the column found as the events' asks find it
    try {
      return defaultElsewhere != null ? defaultElsewhere.onlyValue() : null;
    } catch (IOException e) {
      throw unchecked(e);
    }
  }

  @Override
  public List<String> fieldNames() {
    List<String> names = new ArrayList<>(decodedBlock().columnNames());
    names.removeAll(DEFAULT_COLUMNS);
    return names;
  }

  private static final List<String> DEFAULT_COLUMNS =
      List.of(EventFields.HOST, EventFields.SOURCE, EventFields.SOURCETYPE);

  /** Whether a column is a default field's (asked per event and field: a switch, not a list). */
  private static boolean isDefaultColumn(String name) {
    return switch (name) {
      case EventFields.HOST, EventFields.SOURCE, EventFields.SOURCETYPE -> true;
      default -> false;
    };
  }

  @Override
  public boolean hasField(String name) {
    if (name != hasFieldName) { // the same String for every event of a scan
      try {
        hasFieldAnswer =
            !isDefaultColumn(name) && (counted(name) != null || block().hasColumn(name));
      } catch (IOException e) {
        throw unchecked(e);
      }
      hasFieldName = name;
    }
    return hasFieldAnswer;
  }

  private String hasFieldName; // the last field hasField was asked about, and its answer
  private boolean hasFieldAnswer;

  @Override
  public List<String> field(int doc, String name) throws IOException {
    if (isDefaultColumn(name)) {
      return null;
    }
    BlockColumns.Values counted = counted(name);
    if (counted != null) {
      return valueList(counted.value(doc));
    }
    EventBlock block = block();
    if (block.isElsewhere(name)) {
      return valueList(elsewhere(name).value(doc));
    }
    EventBlock.Column column = block.column(name);
    return column == null || column.valueCount(doc) == 0 ? null : column.values(doc);
  }

  /**
   * Where a column held elsewhere says the event has no value: its codes with "no value" ({@link
   * BlockValueCodes#PARTIAL}), written only where no such event's text mentions the field.
   */
  @Override
  public boolean textLacks(int doc, String name) throws IOException {
    if (isDefaultColumn(name)) {
      return false;
    }
    BlockColumns.Values values =
        block == null ? counted(name) : block.isElsewhere(name) ? elsewhere(name) : null;
    return values != null && values.value(doc) == null;
  }

  /** An event's one value of a column held elsewhere, or null when it has none. */
  private static List<String> valueList(String value) {
    return value == null ? null : List.of(value);
  }

  /**
   * A column held elsewhere has one value per event (or none: -1), by segment ordinal; the
   * payload's have none.
   */
  @Override
  public long keywordOrdinal(int doc, String name) throws IOException {
    BlockColumns.Values values = ordinalColumn(name);
    return values == null ? StoredEvent.NO_ORDINAL : values.ordinal(doc);
  }

  /**
   * The column held elsewhere of {@code name}, or null: found by the name's identity among the few
   * a scan asks about (the same {@code String} for every event; a set and a map lookup per event
   * and field were ~7% of a {@code stats count by method, status} scan's CPU), else looked up.
   */
  private BlockColumns.Values ordinalColumn(String name) throws IOException {
    for (int i = 0; i < ordinalNames.length && ordinalNames[i] != null; i++) {
      if (ordinalNames[i] == name) {
        return ordinalColumns[i];
      }
    }
    BlockColumns.Values values =
        isDefaultColumn(name)
            ? null
            : block == null
                ? counted(name) // null: the payload holds it, or no event has it: no ordinal
                : block.isElsewhere(name) ? elsewhere(name) : null;
    for (int i = 0; i < ordinalNames.length; i++) {
      if (ordinalNames[i] == null) {
        ordinalNames[i] = name;
        ordinalColumns[i] = values;
        break;
      }
    }
    return values;
  }

  /** Whether {@code name} is a column held elsewhere, its ordinals read without the payload. */
  boolean hasOrdinals(String name) throws IOException {
    return ordinalColumn(name) != null;
  }

  private final String[] ordinalNames = new String[4]; // ordinalColumn's names, and their columns
  private final BlockColumns.Values[] ordinalColumns = new BlockColumns.Values[4];

  @Override
  public Object keywordScope() {
    return elsewhere;
  }

  @Override
  public String keywordText(String name, long ordinal) throws IOException {
    return elsewhere.text(name, ordinal);
  }

  /**
   * Every text of {@code name}'s ordinals, once decoded whole ({@link BlockColumns#wholeTexts}).
   */
  String[] keywordTexts(String name) {
    return elsewhere == null ? null : elsewhere.wholeTexts(name);
  }

  @Override
  public String raw(int doc) throws IOException {
    return block().raw(doc);
  }

  @Override
  public TextRegion textRegion() throws IOException {
    return texts().region();
  }

  @Override
  public CharSequence rawView(int doc) throws IOException {
    return texts().view(doc);
  }

  /** Whether every event's text is ASCII ({@link BlockTexts#allAscii}); decodes the block. */
  boolean allAscii() {
    if (texts == null) {
      texts = new BlockTexts(decodedBlock());
    }
    return texts.allAscii();
  }

  /** The decoded block's texts, the payload decoded now if it was not. */
  private BlockTexts texts() throws IOException {
    if (texts == null) {
      texts = new BlockTexts(block());
    }
    return texts;
  }

  private BlockTexts texts; // made when the texts are first asked for
}
