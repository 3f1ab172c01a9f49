package io.quarry.server.search;

import io.quarry.codecs.store.StoredEvent;
import io.quarry.plugin.api.data.BytesBlock;
import java.util.Arrays;

/**
 * A column of a keyword index-time field built from the segment's ordinals ({@link
 * StoredEvent#keywordOrdinal}), page by page: a dictionary block whose dictionary holds the values
 * of the ordinals met, each ordinal's text looked up once, and per position its entry — no value
 * copied per event, and {@code stats … by} the column groups per entry ({@code GroupKeys}). The
 * dictionary is the slice's, not the page's: while the pages come from one segment (the ordinals'
 * scope) and a page adds few new values (at most one in {@value #NEW_SHARE} of its positions new),
 * the next page's block refers to the same dictionary — the same object when it met no new value,
 * so the search's memory account holds it once ({@code BlockFactory.reserve}) and a field of a few
 * values (a method, a status) is looked up once per slice; a page of many new values (an address)
 * starts the next page's dictionary afresh, as does a dictionary past {@value #MAX_SHARED} entries.
 * A page whose positions all hold one entry is a constant block. An event whose value has no
 * ordinal (several values, none, a value a search-time extraction gives, another segment) ends the
 * page's ordinals: {@link #append} says so, and the caller copies the positions so far into its
 * plain builder ({@link #copyInto}) and goes on plain until the page ends. Grouped by ordinal
 * ({@link #groupByOrdinal}), a page that starts once the segment's dictionary is decoded whole
 * holds segment ordinals into that whole dictionary instead (never a constant block). Not
 * thread-safe; one per column of an {@link EventPages}.
 */
final class OrdinalColumn {
  /** Ordinals below this find their page entry in an array, the others in a map. */
  private static final int DIRECT = 1 << 16;

  /**
   * The most entries a dictionary shared by several pages holds: two such by-fields still number
   * their combinations per page ({@code EntryGroups}, 16,384 at most), as smaller per-page
   * dictionaries did.
   */
  private static final int MAX_SHARED = 128;

  /** A page whose new entries are more than one in this many of its positions shares nothing. */
  private static final int NEW_SHARE = 2;

  private final String field;
  private Object scope; // the ordinals' scope: one segment scan
  private int[] entryOf = new int[256]; // ordinal → its page entry + 1 (0: not met this page)
  private final LargeOrdinalEntries entryOfLarge = new LargeOrdinalEntries();
  private long[] ordinalOf = new long[16]; // page entry → its ordinal
  private BytesBlock shared; // the dictionary of entries [0, sharedEntries), built
  private int sharedEntries;
  private BytesBlock.Builder dictionary; // entries [sharedEntries, entries), not built yet
  private int entries;
  private int[] positions; // each position's entry
  private int size;
  private int nulls; // positions without a value (-1), this page
  private int firstEntry; // the page's first valued position's entry
  private boolean oneEntry; // every valued position so far holds firstEntry
  private SegmentDictionaryBlocks wholeBlocks; // grouped by ordinal: where whole dictionaries are
  private BytesBlock whole; // the scope's whole dictionary: positions hold segment ordinals
  private String[] wholeTexts; // the texts whole was made of, held in wholeBlocks until let go

  OrdinalColumn(String field, int pageSize) {
    this.field = field;
    this.positions = new int[Math.max(pageSize, 8)];
    this.dictionary = BytesBlock.builder(16);
  }

  /**
   * Groups by ordinal ({@link PageShape#byOrdinal}): once the scan decoded the segment's dictionary
   * of the field whole, a page starting after that holds each position's segment ordinal into that
   * whole dictionary ({@code blocks}' block of it) — no page entry, no text copied, the same
   * dictionary for every page of the segment — instead of page entries.
   */
  void groupByOrdinal(SegmentDictionaryBlocks blocks) {
    this.wholeBlocks = blocks;
  }

  /**
   * Lets go of the whole dictionary this column held ({@link SegmentDictionaryBlocks#letGo}): its
   * scan moved to another segment, or the slice ended ({@link #close}).
   */
  private void letGoWhole() {
    if (wholeTexts != null) {
      wholeBlocks.letGo(wholeTexts);
      wholeTexts = null;
    }
    whole = null;
  }

  /** The slice ended: what it held is let go. */
  void close() {
    letGoWhole();
  }

  /** The positions appended since the page began. */
  int positionCount() {
    return size;
  }

  /**
   * Appends the event's value by its ordinal; false (nothing appended) when it has none or its
   * scope is not the page's.
   */
  boolean append(StoredEvent event) {
    long ordinal = event.keywordOrdinal(field);
    return ordinal >= 0 && append(ordinal, event.keywordScope(), event::keywordText);
  }

  /** Where the text of an ordinal of a field is looked up: an event's, a block run's. */
  interface Texts {
    String text(String field, long ordinal);

    /** Every text of the field's ordinals once decoded whole (not to be changed), else null. */
    default String[] whole(String field) {
      return null;
    }
  }

  /**
   * Appends a value by its segment {@code ordinal} (of {@code eventScope}, its text from {@code
   * texts} when first met); false (nothing appended) when the scope is not the page's.
   */
  boolean append(long ordinal, Object eventScope, Texts texts) {
    if (eventScope != scope) {
      if (size > nulls) {
        return false; // a page of two segments' values: plain from here (nulls have no scope)
      }
      forget(); // another segment's ordinals
      letGoWhole();
      scope = eventScope;
    }
    if (wholeBlocks != null && whole == null && size == nulls) { // a page starts by ordinal
      String[] all = texts.whole(field);
      whole = all == null ? null : wholeBlocks.hold(all); // null: refused, per-page entries
      if (whole != null) {
        forget();
        wholeTexts = all;
      }
    }
    if (whole != null) {
      if (size == positions.length) {
        positions = Arrays.copyOf(positions, size * 2);
      }
      positions[size++] = (int) ordinal;
      return true;
    }
    int entry = entry(ordinal);
    if (entry < 0) {
      entry = entries++;
      dictionary.append(texts.text(field, ordinal));
      remember(ordinal, entry);
    }
    if (size == positions.length) {
      positions = Arrays.copyOf(positions, size * 2);
    }
    if (size == nulls) {
      firstEntry = entry;
      oneEntry = true;
    } else if (entry != firstEntry) {
      oneEntry = false;
    }
    positions[size++] = entry;
    return true;
  }

  /**
   * Appends a position without a value: an event its block's codes say has none and whose text
   * cannot give one ({@link StoredEvent#textLacks}), so the page stays by ordinal.
   */
  void appendNull() {
    if (size == positions.length) {
      positions = Arrays.copyOf(positions, size * 2);
    }
    positions[size++] = -1;
    nulls++;
  }

  private int entry(long ordinal) {
    if (ordinal < DIRECT) {
      return ordinal < entryOf.length ? entryOf[(int) ordinal] - 1 : -1;
    }
    return entryOfLarge.get(ordinal);
  }

  private void remember(long ordinal, int entry) {
    if (ordinal < DIRECT) {
      if (ordinal >= entryOf.length) {
        entryOf = Arrays.copyOf(entryOf, (int) Math.min(DIRECT, Long.highestOneBit(ordinal) << 1));
      }
      entryOf[(int) ordinal] = entry + 1;
    } else {
      entryOfLarge.put(ordinal, entry);
    }
    if (entry == ordinalOf.length) {
      ordinalOf = Arrays.copyOf(ordinalOf, entry * 2);
    }
    ordinalOf[entry] = ordinal;
  }

  /**
   * Appends the positions so far to {@code plain}, as values; this column is empty after (its
   * dictionary kept for the next page).
   */
  void copyInto(BytesBlock.Builder plain) {
    BytesBlock values = whole != null ? whole : dictionary();
    io.quarry.plugin.api.data.ByteSlice slice = new io.quarry.plugin.api.data.ByteSlice();
    for (int p = 0; p < size; p++) {
      if (positions[p] < 0) {
        plain.appendNull();
        continue;
      }
      values.getBytes(positions[p], slice);
      plain.append(slice.bytes(), slice.offset(), slice.length());
    }
    endPage(0);
  }

  /**
   * The page's block (a constant when every position holds the same value), and this column empty
   * for the next page.
   */
  BytesBlock build() {
    int added = entries - sharedEntries;
    BytesBlock values = whole != null ? whole : dictionary();
    BytesBlock block;
    if (whole == null && size > 0 && nulls == 0 && oneEntry) {
      block = BytesBlock.constant(values.getStringValue(firstEntry), size);
    } else {
      BytesBlock.OrdinalBuilder builder = BytesBlock.ordinalBuilder(values, size);
      for (int p = 0; p < size; p++) {
        if (positions[p] < 0) {
          builder.appendNull();
        } else {
          builder.appendOrdinal(positions[p]);
        }
      }
      block = builder.build();
    }
    if (whole != null) {
      wholeBlocks.pageByOrdinal();
    }
    endPage(added);
    return block;
  }

  /** Every entry so far as one dictionary, built again only when the page added some. */
  private BytesBlock dictionary() {
    if (shared == null || entries > sharedEntries) {
      BytesBlock added = dictionary.build();
      BytesBlock.Builder all = BytesBlock.builder(entries);
      io.quarry.plugin.api.data.ByteSlice slice = new io.quarry.plugin.api.data.ByteSlice();
      for (int e = 0; e < sharedEntries; e++) {
        shared.getBytes(e, slice);
        all.append(slice.bytes(), slice.offset(), slice.length());
      }
      for (int e = 0; e < added.positionCount(); e++) {
        added.getBytes(e, slice);
        all.append(slice.bytes(), slice.offset(), slice.length());
      }
      shared = all.build();
      sharedEntries = entries;
      dictionary = BytesBlock.builder(16);
    }
    return shared;
  }

  /**
   * Ends the page: its positions dropped; the dictionary kept for the next page unless the page
   * added many entries ({@code added}) or it grew past {@link #MAX_SHARED}.
   */
  private void endPage(int added) {
    if ((long) added * NEW_SHARE > size || entries > MAX_SHARED) {
      forget();
    }
    size = 0;
    nulls = 0;
  }

  /** Drops the dictionary: the next page starts its own. */
  private void forget() {
    for (int e = 0; e < entries; e++) {
      long ordinal = ordinalOf[e];
      if (ordinal < DIRECT) {
        entryOf[(int) ordinal] = 0;
      }
    }
    entryOfLarge.clear();
    entries = 0;
    shared = null;
    sharedEntries = 0;
    dictionary = BytesBlock.builder(16);
  }
}
