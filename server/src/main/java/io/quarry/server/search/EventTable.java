package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.EventFields;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.OutputLookupCommand;
import io.quarry.ql.exec.LookupTable;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.ql.exec.ReduceCoverage;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * {@code outputlookup} ending an event listing ({@code index=web | outputlookup copy}), on pages as
 * the row command writes it: the answer is the listing itself; the table's columns are the fields
 * the events list (their default and index-time fields, not the search-time ones), in the order the
 * rows first name them, and each row's cell of a column is the event's value — its own, or what its
 * extraction finds where it does not list the field, as the row operator asks every row for every
 * column once the input ends. It takes the listing's pages ({@link EventListing}, which carries
 * each row's index-time field names), keeps each row's cells and raw text, hands the pages on
 * without the hidden column until the answer is full, and writes the table when the input ends —
 * every row, also past the answer's limit, as on rows. The rows kept count on the search's memory.
 */
final class EventTable {
  private final OutputLookupCommand command;
  private final LookupTable.Writer writer;
  private final MemoryTracker memory;
  private final Sourcetypes sourcetypes;
  private final boolean extract;
  private final Predicate<Page> out;
  private final Set<String> header = new LinkedHashSet<>();
  private final List<Kept> rows = new ArrayList<>();
  private boolean answered; // the answer is full: pages are no longer handed on

  /** A row: the cells of its page's columns, and what its extraction needs. */
  private record Kept(Map<String, String> cells, String raw, String sourcetype) {}

  EventTable(
      OutputLookupCommand command,
      LookupTable.Writer writer,
      MemoryTracker memory,
      Sourcetypes sourcetypes,
      boolean extract,
      Predicate<Page> out) {
    this.command = requireNonNull(command, "command is null");
    this.writer = requireNonNull(writer, "writer is null");
    this.memory = requireNonNull(memory, "memory is null");
    this.sourcetypes = requireNonNull(sourcetypes, "sourcetypes is null");
    this.extract = extract;
    this.out = requireNonNull(out, "out is null");
  }

  /**
   * Whether {@code pipeline} is commands that keep the events, then {@code outputlookup} as the
   * last command.
   */
  static boolean applies(List<Command> pipeline) {
    int last = pipeline.size() - 1;
    return last >= 0
        && pipeline.get(last) instanceof OutputLookupCommand
        && pipeline.subList(0, last).stream().allMatch(TimeOrderedShape::keepsEvents)
        && ReduceCoverage.supportsOverEvents(pipeline.subList(0, last));
  }

  /** Takes a page of the listing; always true: every row goes into the table. */
  boolean add(Page page) {
    int names = page.schema().indexOf(EventListing.FIELD_NAMES);
    Block raw = page.block(EventFields.RAW);
    Block sourcetype = page.block(EventFields.SOURCETYPE);
    for (int p = 0; p < page.positionCount(); p++) {
      header.addAll(EventListing.DEFAULT_ORDER);
      if (names >= 0) {
        page.block(names).getValues(p).forEach(name -> header.add((String) name));
      }
      Map<String, String> cells = new HashMap<>();
      long bytes = MemoryTracker.ROW_BYTES;
      for (int c = 0; c < page.schema().size(); c++) {
        String name = page.schema().column(c).name();
        if (c != names) {
          String text = LookupTable.cellText(name, page.block(c).getValues(p));
          cells.put(name, text);
          bytes += MemoryTracker.valueBytes(text);
        }
      }
      rows.add(new Kept(cells, (String) raw.getObject(p), (String) sourcetype.getObject(p)));
      memory.add(bytes);
    }
    if (!answered) {
      answered = !out.test(names < 0 ? page : without(page, names));
    }
    return true;
  }

  /** The input is over: the table is written. */
  void finish() {
    List<String> columns = List.copyOf(header);
    List<List<String>> cells = new ArrayList<>(rows.size());
    for (Kept row : rows) {
      FieldExtractor extractor = null;
      List<String> line = new ArrayList<>(columns.size());
      for (String column : columns) {
        String cell = row.cells().get(column);
        if (cell == null && extract && row.raw() != null) { // a column its page did not have
          if (extractor == null) {
            extractor = new FieldExtractor(row.raw(), sourcetypes.forName(row.sourcetype()));
          }
          cell = LookupTable.cellText(column, extractor.values(column));
        }
        line.add(cell == null ? "" : cell);
      }
      cells.add(line);
    }
    writer.write(command.table(), new LookupTable(columns, cells));
    close();
  }

  void close() {
    rows.clear();
    memory.release();
  }

  private static Page without(Page page, int column) {
    List<Schema.Column> columns = new ArrayList<>(page.schema().columns());
    List<Block> blocks = new ArrayList<>(page.blocks());
    columns.remove(column);
    blocks.remove(column);
    return new Page(new Schema(columns), blocks, page.positionCount());
  }
}
