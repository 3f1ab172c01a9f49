package io.quarry.server.search;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.exec.PluginOverlayOperator;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The field names of the rows a run of plugin commands over events answers ({@link
 * PluginOverEvents}): per overlay row, the fields it lists, every field it has and those it lost,
 * as hidden name columns an {@link EventListing} lists from — a step of the search's chain after
 * the run's {@link PluginOverlayOperator}s ({@link #step}).
 */
final class OverlayNames {
  private OverlayNames() {}

  /** A step listing each overlay row's fields ({@link #listedNames}). */
  static Operator step() {
    return new PageTransformOperator() {
      @Override
      protected Page process(Page page) {
        return listedNames(page);
      }
    };
  }

  /**
   * The plugin commands' output with each row's fields as its overlay row lists them in {@link
   * ListingColumns#FIELD_NAMES} — those its row listed before them ({@link
   * ListingColumns#LISTED_NAMES}: the default fields, the event's index-time ones, the changes of
   * the commands before them), then the fields the commands laid over it ({@link
   * PluginOverlayOperator#OVERLAID}) as {@link EventOverlays#plugin} replays them —, its every
   * field laid over the same way in {@link ListingColumns#DISCOVERED_NAMES} (for a later run), and
   * the fields it lost, before them too, in {@link ListingColumns#CLEARED}.
   */
  static Page listedNames(Page page) {
    if (page.block(ListingColumns.LISTED_NAMES) == null) {
      return ownRows(page);
    }
    EventOverlays overlays = EventOverlays.plugin();
    Block own = page.block(ListingColumns.LISTED_NAMES);
    Block every = page.block(ListingColumns.DISCOVERED_NAMES);
    Block lost = page.block(ListingColumns.CLEARED_NAMES);
    BytesBlock.Builder names = BytesBlock.builder(page.positionCount());
    BytesBlock.Builder discovered = BytesBlock.builder(page.positionCount());
    BytesBlock.Builder cleared = BytesBlock.builder(page.positionCount());
    for (int p = 0; p < page.positionCount(); p++) {
      int position = p;
      java.util.function.Predicate<String> hasValue =
          field -> {
            Block block = page.block(field);
            return block != null && !block.isNull(position);
          };
      java.util.function.Function<String, List<Object>> values =
          field -> {
            Block block = page.block(field);
            return block == null ? List.of() : block.getValues(position);
          };
      List<String> listed = strings(own, p);
      Set<String> gone = new LinkedHashSet<>(strings(lost, p));
      overlays.apply(listed, hasValue, values, gone);
      List<String> everyField = strings(every, p);
      overlays.apply(everyField, hasValue, values, new LinkedHashSet<>());
      append(names, listed);
      append(discovered, everyField);
      append(cleared, List.copyOf(gone));
    }
    return page.withColumn(ListingColumns.FIELD_NAMES, names.build())
        .withColumn(ListingColumns.DISCOVERED_NAMES, discovered.build())
        .withColumn(ListingColumns.CLEARED, cleared.build());
  }

  /**
   * A page of rows a plugin command made of its own (no row column: {@link PluginOverlayOperator}),
   * listing each row's fields: those it holds a value in, in the page's column order, every field
   * and listed alike; no event's text (a null {@link ListingColumns#EVENT_RAW}: nothing extracted,
   * no bare word matched).
   */
  private static Page ownRows(Page page) {
    BytesBlock.Builder names = BytesBlock.builder(page.positionCount());
    BytesBlock.Builder cleared = BytesBlock.builder(page.positionCount());
    BytesBlock.Builder noText = BytesBlock.builder(page.positionCount());
    for (int p = 0; p < page.positionCount(); p++) {
      List<String> valued = new ArrayList<>();
      for (int c = 0; c < page.schema().size(); c++) {
        String name = page.schema().column(c).name();
        if (!name.startsWith("\u0000") && !page.block(c).isNull(p)) {
          valued.add(name);
        }
      }
      append(names, valued);
      cleared.appendNull();
      noText.appendNull();
    }
    BytesBlock listed = names.build();
    BytesBlock none = noText.build();
    return page.withColumn(ListingColumns.FIELD_NAMES, listed)
        .withColumn(ListingColumns.DISCOVERED_NAMES, listed)
        .withColumn(ListingColumns.CLEARED, cleared.build())
        .withColumn(ListingColumns.EVENT_RAW, none)
        .withColumn(ListingColumns.EVENT_SOURCETYPE, none);
  }

  /** A names column's cell at {@code position}, as a list. */
  private static List<String> strings(Block names, int position) {
    List<String> strings = new ArrayList<>();
    for (Object name : names.getValues(position)) {
      strings.add((String) name);
    }
    return strings;
  }

  private static void append(BytesBlock.Builder builder, List<String> values) {
    switch (values.size()) {
      case 0 -> builder.appendNull();
      case 1 -> builder.append(values.getFirst());
      default -> {
        builder.beginPositionEntry();
        values.forEach(builder::append);
        builder.endPositionEntry();
      }
    }
  }
}
