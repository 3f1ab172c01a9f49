package io.quarry.server.search;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The per-row field names one page of an {@link EventListing} carries as its last hidden columns,
 * gathered row by row as the page is laid out: the fields each row lists and those it was left
 * without ({@link ListingColumns#LISTED_NAMES}, {@link ListingColumns#CLEARED_NAMES}; the listing
 * adds the events' own text where a command changed it, {@link ListingColumns#withEventText}), and
 * each row's every field ({@link ListingColumns#DISCOVERED_NAMES}).
 */
final class RowNameColumns {
  private final List<List<String>> listed; // null: not carried
  private final List<List<String>> discovered; // null: not carried

  RowNameColumns(boolean listed, boolean discovered, int count) {
    this.listed = listed ? new ArrayList<>(count) : null;
    this.discovered = discovered ? new ArrayList<>(count) : null;
  }

  /** Whether the page carries the fields each row lists. */
  boolean listsRows() {
    return listed != null;
  }

  /** Whether the page carries each row's every field. */
  boolean discoversRows() {
    return discovered != null;
  }

  /** The next row's listed fields. */
  void listed(List<String> names) {
    listed.add(names);
  }

  /** The next row's every field. */
  void discovered(List<String> names) {
    discovered.add(names);
  }

  /**
   * Adds the hidden columns to the page's {@code columns} and {@code blocks}: the rows of {@code
   * cut}, each having lost the fields {@code cleared} names (by {@link HeldRows#row}).
   */
  void addTo(
      List<Schema.Column> columns,
      List<Block> blocks,
      HeldRows.Cut cut,
      Map<Long, Set<String>> cleared) {
    int count = cut.count();
    if (listed != null) {
      BytesBlock.Builder listedColumn = BytesBlock.builder(count);
      BytesBlock.Builder clearedNames = BytesBlock.builder(count);
      int row = 0;
      for (int i = 0; i < cut.pages().size(); i++) {
        for (int p = cut.ranges().get(i)[0]; p < cut.ranges().get(i)[1]; p++) {
          ListingColumns.appendAll(listedColumn, listed.get(row++));
          ListingColumns.appendAll(
              clearedNames, cleared.getOrDefault(HeldRows.row(i, p), Set.of()));
        }
      }
      add(columns, blocks, ListingColumns.LISTED_NAMES, listedColumn.build());
      add(columns, blocks, ListingColumns.CLEARED_NAMES, clearedNames.build());
    }
    if (discovered != null) {
      BytesBlock.Builder names = BytesBlock.builder(count);
      discovered.forEach(rowNames -> ListingColumns.appendAll(names, rowNames));
      add(columns, blocks, ListingColumns.DISCOVERED_NAMES, names.build());
    }
  }

  private static void add(
      List<Schema.Column> columns, List<Block> blocks, String name, Block block) {
    columns.add(new Schema.Column(name, block.dataType()));
    blocks.add(block);
  }
}
