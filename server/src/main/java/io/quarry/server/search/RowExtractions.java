package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.EventFields;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.exec.Values;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The search-time values of an {@link EventListing}'s rows: which fields a row's extraction is
 * asked for (not a default field, nor one the source read for the commands, whose columns hold
 * every event's value), and each row's extraction from its event's {@code _raw} and {@code
 * sourcetype}, made once per row of the page being laid out ({@link #forget} between pages) and
 * timed for the job inspector. In fast mode a row's extraction is asked only for a field the row
 * lists or a {@code rex} sets (the event's own value where the rex left it none); the listings of
 * every field, and an {@code append}'s, ask it for any field another row of the page lists ({@link
 * ListingLayout}).
 */
final class RowExtractions {
  private final Set<String> read;
  private final boolean extract;
  private final Sourcetypes sourcetypes;
  private final ExtractionClock clock = new ExtractionClock();
  private final Map<Long, FieldExtractor> made = new HashMap<>(); // by HeldRows.row(i, p)

  /**
   * @param read the fields the source read for the commands
   * @param extract false when nothing is extracted from an event's text ({@code tstats})
   */
  RowExtractions(Set<String> read, boolean extract, Sourcetypes sourcetypes) {
    this.read = Set.copyOf(read);
    this.extract = extract;
    this.sourcetypes = requireNonNull(sourcetypes, "sourcetypes is null");
  }

  /** Whether a row's missing value of {@code name} is asked of its extraction. */
  boolean extracts(String name) {
    return extract && !EventListing.DEFAULT_ORDER.contains(name) && !read.contains(name);
  }

  /** Whether the source read a field besides the default ones for the commands. */
  boolean readsBeyondDefaults() {
    return !EventListing.DEFAULT_ORDER.containsAll(read);
  }

  /** Forgets the extractions made: the next page's rows are others. */
  void forget() {
    made.clear();
  }

  /** The nanoseconds spent extracting since the last call. */
  long took() {
    return clock.take();
  }

  /** The names the extraction of position {@code p} of the {@code i}-th page finds. */
  List<String> names(Page page, int i, int p) {
    FieldExtractor extractor = of(page, i, p);
    return clock.time(extractor::names);
  }

  /**
   * Whether the event at position {@code p} of the {@code i}-th page has a value of {@code field}
   * of its own: its page's column holds one, else (a field the source did not read) its extraction
   * finds one.
   */
  boolean ownValue(Page page, int i, int p, String field) {
    if (EventListing.hasValue(page, field, p)) {
      return true;
    }
    if (!extracts(field)) {
      return false;
    }
    FieldExtractor of = of(page, i, p);
    return of != null && !clock.time(() -> of.values(field)).isEmpty();
  }

  /**
   * Each row's values of {@code name}: its column's, else — where {@code extract} — extracted from
   * its {@code _raw}; none for a row that does not list the field ({@code unlisted}: in fast mode,
   * where its column holds a value the row does not list — a field the source read for a command, a
   * carried row's own search-time value), that is no event ({@code others}) or that lost the field
   * ({@code cleared}), all by {@link HeldRows#row}.
   */
  List<List<Object>> cells(
      String name,
      HeldRows.Cut cut,
      Map<Long, Set<String>> cleared,
      Set<Long> others,
      boolean extract,
      Set<Long> unlisted) {
    boolean extracts = extract && extracts(name);
    List<List<Object>> cells = new ArrayList<>(cut.count());
    for (int i = 0; i < cut.pages().size(); i++) {
      Page page = cut.pages().get(i);
      int column = page.schema().indexOf(name);
      Block block = column < 0 ? null : page.block(column);
      for (int p = cut.ranges().get(i)[0]; p < cut.ranges().get(i)[1]; p++) {
        long row = HeldRows.row(i, p);
        if (unlisted.contains(row)) {
          cells.add(List.of());
        } else if (block != null && !block.isNull(p)) {
          cells.add(Values.valuesOf(block, p));
        } else if (extracts
            && !others.contains(row)
            && !cleared.getOrDefault(row, Set.of()).contains(name)) {
          FieldExtractor of = of(page, i, p);
          cells.add(of == null ? List.of() : List.copyOf(clock.time(() -> of.values(name))));
        } else {
          cells.add(List.of());
        }
      }
    }
    return cells;
  }

  /** The extraction of position {@code p} of the {@code i}-th page, made once. */
  FieldExtractor of(Page page, int i, int p) {
    return made.computeIfAbsent(HeldRows.row(i, p), key -> extractor(page, p));
  }

  /**
   * The search-time extraction of a row, from its event's {@code _raw} and {@code sourcetype} (the
   * columns {@link ListingColumns#withEventText} kept, where a command changed them); null for a
   * row that is no event (a null event text: a plugin command's own row, {@link PluginOverEvents}).
   */
  private FieldExtractor extractor(Page page, int position) {
    Block raws = page.block(ListingColumns.EVENT_RAW);
    if (raws != null && raws.isNull(position)) {
      return null;
    }
    Block types = page.block(ListingColumns.EVENT_SOURCETYPE);
    String raw = (String) (raws != null ? raws : page.block(EventFields.RAW)).getObject(position);
    String sourcetype =
        (String) (types != null ? types : page.block(EventFields.SOURCETYPE)).getObject(position);
    return new FieldExtractor(raw, sourcetypes.forName(sourcetype));
  }
}
