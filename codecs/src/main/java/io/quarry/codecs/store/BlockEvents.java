package io.quarry.codecs.store;

import io.quarry.codecs.block.EventBlock;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.StoredFieldVisitor;
import org.apache.lucene.index.StoredFields;

/**
 * The events of one decoded block document, for {@link StoredEvent}: an event's "document" is its
 * position in the block (newest first). Columns are decoded when first asked for, {@code _raw}
 * stays bytes in the block until a {@code String} is wanted, and an ASCII event's text is viewed in
 * place ({@link AsciiText}). Events hold their block, so they stay readable after the scan moved on
 * (a visitor reading {@code _raw} at {@link EventVisitor#finish}).
 *
 * <p>A column the payload holds elsewhere (event block version 2: a field of which every event has
 * exactly one value) is read from the block's doc values through the scan's {@link BlockColumns}
 * when first asked for — during the scan's visit, as the event layout's doc values are.
 */
final class BlockEvents implements StoredEvent.Loader {
  private final String index;
  private final EventBlock block;
  private final BlockColumns elsewhere;
  private final int blockDoc;
  private Map<String, BlockColumns.Values> read; // columns read from elsewhere, by field

  private final io.quarry.codecs.journal.JournalBlock lender; // null when not lent by the journal
  private final byte[] lent;

  private BlockEvents(
      String index,
      EventBlock block,
      BlockColumns elsewhere,
      int doc,
      io.quarry.codecs.journal.JournalBlock lender,
      byte[] lent) {
    this.lender = lender;
    this.lent = lent;
    this.index = index;
    this.block = block;
    this.elsewhere = elsewhere;
    this.blockDoc = doc;
  }

  /**
   * Reads and opens block document {@code doc}; {@code elsewhere} reads the columns its payload
   * does not hold, from the same segment.
   *
   * @throws CorruptIndexException when the journal block or the event block is damaged
   */
  static BlockEvents read(String index, StoredFields journal, BlockColumns elsewhere, int doc)
      throws IOException {
    Payload payload = new Payload();
    journal.document(doc, payload);
    if (payload.bytes == null) {
      throw new CorruptIndexException("block document " + doc + " has no block", "journal");
    }
    EventBlock block =
        payload.verified // the journal checked its decoded block's CRC32C: not the block's again
            ? EventBlock.openVerified(payload.bytes, payload.offset, payload.length)
            : EventBlock.open(payload.bytes, payload.offset, payload.length);
    return new BlockEvents(index, block, elsewhere, doc, payload.lender, payload.bytes);
  }

  /**
   * Hands the journal's decoded bytes back for its next block, when they were lent: only once
   * nothing reads this block's events any more (no event, value or view of them is kept), and at
   * most once.
   */
  void release() {
    if (lender != null) {
      lender.giveBack(lent);
    }
  }

  /** Decodes the whole block, checking its grammar ({@link EventBlock#verify}). */
  void verify() throws IOException {
    block.verify();
  }

  /** The number of events. */
  int count() {
    return block.count();
  }

  /** Event {@code i}'s time. */
  long time(int i) {
    return block.time(i);
  }

  /** Event {@code i}. */
  StoredEvent event(int i) {
    return new StoredEvent(index, block.time(i), this, i);
  }

  /** The column of {@code name} the payload holds elsewhere, read when first asked for. */
  private BlockColumns.Values elsewhere(String name) throws IOException {
    if (read == null) {
      read = new HashMap<>();
    }
    BlockColumns.Values values = read.get(name);
    if (values == null) {
      values = elsewhere.read(blockDoc, name, block.count());
      read.put(name, values);
    }
    return values;
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
        defaultElsewhere = block.isElsewhere(name) ? elsewhere(name) : null;
        defaultColumn = defaultElsewhere == null ? block.column(name) : null;
        defaultName = name;
      }
      if (defaultElsewhere != null) {
        return defaultElsewhere.value(doc);
      }
      EventBlock.Column column = defaultColumn;
      return column == null || column.valueCount(doc) == 0 ? "" : column.value(column.code(doc, 0));
    } catch (CorruptIndexException e) {
      throw new TimeOrderedScan.UncheckedCorruption(e);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Override
  public List<String> fieldNames() {
    List<String> names = new ArrayList<>(block.columnNames());
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
      hasFieldAnswer = !isDefaultColumn(name) && block.hasColumn(name);
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
    if (block.isElsewhere(name)) {
      return List.of(elsewhere(name).value(doc));
    }
    EventBlock.Column column = block.column(name);
    return column == null || column.valueCount(doc) == 0 ? null : column.values(doc);
  }

  /**
   * A column held elsewhere has one value per event, by segment ordinal; the payload's have none.
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
        !isDefaultColumn(name) && block.isElsewhere(name) ? elsewhere(name) : null;
    for (int i = 0; i < ordinalNames.length; i++) {
      if (ordinalNames[i] == null) {
        ordinalNames[i] = name;
        ordinalColumns[i] = values;
        break;
      }
    }
    return values;
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

  @Override
  public String raw(int doc) {
    return block.raw(doc);
  }

  @Override
  public CharSequence rawView(int doc) {
    int offset = block.rawOffset(doc);
    int length = block.rawLength(doc);
    return (allAscii() || AsciiText.isAscii(block.bytes(), offset, length))
        ? new AsciiText().reset(block.bytes(), offset, length)
        : null;
  }

  /**
   * Whether every event's text is ASCII, checked once over the block's whole text section instead
   * of once per event (nearly every block of machine data is).
   */
  private boolean allAscii() {
    if (allAscii == 0) {
      int start = block.rawOffset(0);
      allAscii =
          AsciiText.isAscii(block.bytes(), start, block.rawOffset(block.count()) - start) ? 1 : -1;
    }
    return allAscii > 0;
  }

  private int allAscii; // 0: not checked yet, 1: every text is ASCII, -1: some is not

  /**
   * Takes the block's bytes out of a block document's stored fields: from the journal, a view of
   * its decoded block (no copy of the payload, which is most of that block).
   */
  private static final class Payload extends StoredFieldVisitor
      implements io.quarry.codecs.journal.KeptBinaryFieldVisitor {
    byte[] bytes;
    int offset;
    int length;
    boolean verified; // lent by the journal, its block's checksum verified
    io.quarry.codecs.journal.JournalBlock lender; // the journal's block that lent the bytes

    @Override
    public Status needsField(FieldInfo fieldInfo) {
      if (bytes != null) {
        return Status.STOP;
      }
      return fieldInfo.name.equals(BlockDocuments.BLOCK) ? Status.YES : Status.NO;
    }

    @Override
    public void binaryField(FieldInfo fieldInfo, byte[] value) {
      bytes = value;
      offset = 0;
      length = value.length;
    }

    @Override
    public void binaryField(
        FieldInfo fieldInfo,
        byte[] value,
        int offset,
        int length,
        io.quarry.codecs.journal.JournalBlock lender) {
      this.lender = lender;
      this.bytes = value;
      this.offset = offset;
      this.length = length;
      this.verified = true;
    }
  }
}
