package io.quarry.server.search;

import io.quarry.codecs.store.EventFields;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.exec.EventText;
import io.quarry.ql.exec.Values;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The columns an event listing's pages carry besides the answer's ({@link EventListing}): the
 * source page laid out for a listing ({@link #sourcePage}), and the hidden columns — each named
 * with a NUL, so no search can name them — that say per row which fields it has and whose text its
 * search-time fields come from.
 */
final class ListingColumns {
  private ListingColumns() {}

  /**
   * The source's column of each event's index-time field names (null: none), in the event's order;
   * the NUL in its name keeps it apart from any field a search can name.
   */
  static final String FIELD_NAMES = "\u0000index-time fields";

  /**
   * The event's own {@code _raw} and {@code sourcetype}, what the extraction reads, where a command
   * after the listing changes either ({@link #withEventText}); a null {@code EVENT_RAW} marks a row
   * that is no event ({@link OtherRows}). Not what a bare word reads ({@link EventText#OWN_RAW},
   * which goes where {@code _raw} goes: a {@code fields - _raw} drops it, the extraction still
   * reads this).
   */
  static final String EVENT_RAW = "\u0000event text";

  static final String EVENT_SOURCETYPE = "\u0000event sourcetype";

  /**
   * Per row, the fields it no longer has (no value, not even the event's own), where {@link
   * #FIELD_NAMES} already lists every field the row has ({@link EventListing#fromListedNames}).
   */
  static final String CLEARED = "\u0000cleared fields";

  /**
   * Each row's fields as it lists them after the commands' changes, in its order, and the fields
   * the commands left it without (no value, not even its event's own): the hidden columns a
   * listing's pages carry for the {@code outputlookup} ending it ({@link
   * EventListing#carryingListedNames}).
   */
  static final String LISTED_NAMES = "\u0000listed fields";

  static final String CLEARED_NAMES = "\u0000fields left without";

  /**
   * Each row's every field, those only its extraction finds included, after the commands' changes,
   * in its order: the columns of the batch a plugin command reading every field takes ({@link
   * EventListing#carryingDiscoveredNames}).
   */
  static final String DISCOVERED_NAMES = "\u0000discovered fields";

  /**
   * A source page laid out for a listing: the default fields, the index-time fields the events of
   * {@code listed} (one map per position) have, in first-named order — a field the commands read
   * keeps the source's column of it, the others hold the events' own values —, {@link
   * #FIELD_NAMES}, then the other fields the commands read.
   */
  static Page sourcePage(Page read, List<Map<String, List<String>>> listed) {
    Set<String> indexed = new LinkedHashSet<>();
    for (Map<String, List<String>> fields : listed) {
      indexed.addAll(fields.keySet());
    }
    List<Schema.Column> columns = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    Set<String> placed = new java.util.HashSet<>();
    for (String name : EventListing.DEFAULT_ORDER) {
      int column = read.schema().indexOf(name);
      columns.add(read.schema().column(column));
      blocks.add(read.block(column));
      placed.add(name);
    }
    for (String name : indexed) {
      int column = read.schema().indexOf(name);
      Block block = column >= 0 ? read.block(column) : ownValues(name, listed);
      columns.add(new Schema.Column(name, block.dataType()));
      blocks.add(block);
      placed.add(name);
    }
    if (!indexed.isEmpty()) {
      BytesBlock.Builder names = BytesBlock.builder(listed.size());
      for (Map<String, List<String>> fields : listed) {
        appendAll(names, fields.keySet());
      }
      BytesBlock block = names.build();
      columns.add(new Schema.Column(FIELD_NAMES, block.dataType()));
      blocks.add(block);
    }
    for (int column = 0; column < read.schema().size(); column++) {
      if (!placed.contains(read.schema().column(column).name())) {
        columns.add(read.schema().column(column));
        blocks.add(read.block(column));
      }
    }
    return new Page(new Schema(columns), blocks, read.positionCount());
  }

  /** A column of each event's own values of an index-time field (null where it has none). */
  private static Block ownValues(String name, List<Map<String, List<String>>> listed) {
    BytesBlock.Builder values = BytesBlock.builder(listed.size());
    for (Map<String, List<String>> fields : listed) {
      List<String> own = fields.get(name);
      appendAll(values, own == null ? List.of() : own);
    }
    return values.build();
  }

  static void appendAll(BytesBlock.Builder builder, java.util.Collection<String> values) {
    switch (values.size()) {
      case 0 -> builder.appendNull();
      case 1 -> builder.append(values.iterator().next());
      default -> {
        builder.beginPositionEntry();
        values.forEach(builder::append);
        builder.endPositionEntry();
      }
    }
  }

  /**
   * A source page with its events' own {@code _raw} and {@code sourcetype} also under {@link
   * #EVENT_RAW} and {@link #EVENT_SOURCETYPE} (the same blocks), which no command names: the
   * extraction reads them where a command changed the fields; and its {@code _raw} under {@link
   * EventText#OWN_RAW}, what a bare word reads.
   */
  static Page withEventText(Page source) {
    return EventText.withOwnText(source)
        .withColumn(EVENT_RAW, source.block(EventFields.RAW))
        .withColumn(EVENT_SOURCETYPE, source.block(EventFields.SOURCETYPE));
  }

  /**
   * {@code laid}, a listing's page of rows {@code ranges} of {@code pages}, with those rows'
   * events' own {@code _raw} and {@code sourcetype} under {@link #EVENT_RAW} and {@link
   * #EVENT_SOURCETYPE}: the pages' own columns of them where they carry them ({@link
   * #withEventText}), else their {@code _raw} and {@code sourcetype} (no command changed them); and
   * the text a bare word reads under {@link EventText#OWN_RAW} alike, each row's as the commands
   * before left it ({@link EventText#OWN_RAW} where the pages carry it: a command, not the rows
   * that share the laid page, decides whether a row keeps its own text — {@code
   * EventText.ownTextAfterProjection}, {@code ownTextAfterRename}), else its {@code _raw}; none
   * where the pages have neither.
   */
  static Page withEventText(Page laid, List<Page> pages, List<int[]> ranges) {
    Page with = laid;
    List<String[]> carried = new ArrayList<>();
    carried.add(new String[] {EVENT_RAW, EventFields.RAW});
    carried.add(new String[] {EVENT_SOURCETYPE, EventFields.SOURCETYPE});
    if (pages.stream()
        .anyMatch(
            page -> page.block(EventText.OWN_RAW) != null || page.block(EventFields.RAW) != null)) {
      carried.add(new String[] {EventText.OWN_RAW, EventFields.RAW});
    }
    for (String[] names : carried) {
      boolean whole =
          pages.size() == 1
              && ranges.getFirst()[0] == 0
              && ranges.getFirst()[1] == pages.getFirst().positionCount();
      Block block;
      if (whole) {
        block = ownText(pages.getFirst(), names);
      } else {
        block = text(pages, ranges, laid.positionCount(), page -> ownText(page, names));
      }
      with = with.withColumn(names[0], block);
    }
    return with;
  }

  /**
   * The single-valued text column {@code columnOf} gives for each page (null: none), over rows
   * {@code ranges} of {@code pages}.
   */
  private static Block text(
      List<Page> pages,
      List<int[]> ranges,
      int count,
      java.util.function.Function<Page, Block> columnOf) {
    BytesBlock.Builder text = BytesBlock.builder(count);
    for (int i = 0; i < pages.size(); i++) {
      Block block = columnOf.apply(pages.get(i));
      for (int p = ranges.get(i)[0]; p < ranges.get(i)[1]; p++) {
        Object value = block == null || block.isNull(p) ? null : Values.valueOf(block, p);
        if (value == null) {
          text.appendNull();
        } else {
          text.append(value.toString());
        }
      }
    }
    return text.build();
  }

  /**
   * A page's column of its events' own text field: {@code names[0]} if carried, else {@code
   * names[1]}.
   */
  private static Block ownText(Page page, String[] names) {
    Block carried = page.block(names[0]);
    return carried != null ? carried : page.block(names[1]);
  }

  /**
   * {@code page} without its hidden columns (each named with a NUL): an answer's page after
   * commands that carried them along ({@code table *} keeps every column holding a value).
   */
  static Page withoutHidden(Page page) {
    List<Schema.Column> columns = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    for (int c = 0; c < page.schema().size(); c++) {
      if (!page.schema().column(c).name().startsWith("\u0000")) {
        columns.add(page.schema().column(c));
        blocks.add(page.block(c));
      }
    }
    return columns.size() == page.schema().size()
        ? page
        : new Page(new Schema(columns), blocks, page.positionCount());
  }
}
