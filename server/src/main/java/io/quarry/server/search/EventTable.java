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
import io.quarry.ql.exec.TableCells;
import io.quarry.ql.exec.Values;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * {@code outputlookup} ending an event listing ({@code index=web | outputlookup copy}, also after
 * commands that change the events' fields as {@link ListedFields} replays them: {@code index=web |
 * eval y=1 | outputlookup copy}), on pages: the answer is the listing itself; the table's columns
 * are the fields the rows list (their default and index-time fields, not the search-time ones, with
 * the commands' changes laid over them), in the order the rows first name them, and each row's cell
 * of a column is the row's value — its own, or what its extraction finds where it does not list the
 * field and no command left it without one, every row asked for every column once the input ends.
 * It takes the listing's pages ({@link EventListing}, which carries each row's listed fields),
 * keeps each row's cells (a {@link TableCells}, as the page stage of {@code outputlookup} keeps
 * them) and raw text, hands the pages on without the hidden columns until the answer is full, and
 * writes the table when the input ends — every row, also past the answer's limit. The cells kept
 * count on the search's memory.
 */
final class EventTable {
  private final OutputLookupCommand command;
  private final LookupTable.Writer writer;
  private final Sourcetypes sourcetypes;
  private final boolean extract;
  private final Predicate<Page> out;
  private final TableCells table; // the cells of each row's page's columns
  private final List<Kept> rows = new ArrayList<>(); // what each row's missing cells need
  private boolean answered; // the answer is full: pages are no longer handed on

  /** A row's extraction, and the fields the commands left it without (never extracted). */
  private record Kept(String raw, String sourcetype, Set<String> cleared) {}

  EventTable(
      OutputLookupCommand command,
      LookupTable.Writer writer,
      MemoryTracker memory,
      Sourcetypes sourcetypes,
      boolean extract,
      Predicate<Page> out) {
    this.command = requireNonNull(command, "command is null");
    this.writer = requireNonNull(writer, "writer is null");
    this.table = new TableCells(memory);
    this.sourcetypes = requireNonNull(sourcetypes, "sourcetypes is null");
    this.extract = extract;
    this.out = requireNonNull(out, "out is null");
  }

  /**
   * The position of the {@code outputlookup} in an event listing this writes on pages, else -1: the
   * commands before it keep the events or change their fields as {@link ListedFields} replays them
   * (a change of {@code _raw} or {@code sourcetype} too: the table's extraction reads the event's
   * own, which the listing's pages carry), and those after it ({@link ListedFields}' too, {@code
   * outputlookup} handing each row on as it came) have page stages over events.
   *
   * @param tableColumns a lookup table's columns by its name, for a {@code lookup} without {@code
   *     OUTPUT} ({@link ListedFields#of(List, java.util.function.Function)})
   */
  static int at(
      List<Command> pipeline, java.util.function.Function<String, List<String>> tableColumns) {
    int at = position(pipeline);
    if (at < 0 || !ReduceCoverage.supportsOverEvents(pipeline.subList(0, at))) {
      return -1;
    }
    List<Command> passed = new ArrayList<>(pipeline.subList(0, at));
    passed.addAll(pipeline.subList(at + 1, pipeline.size()));
    return ReduceCoverage.supportsOverEvents(passed)
            && ListedFields.of(pipeline.subList(0, at), tableColumns) != null
            && ListedFields.of(pipeline, tableColumns, at) != null
        ? at
        : -1;
  }

  /** The position of the first {@code outputlookup} in {@code pipeline}, else -1. */
  static int position(List<Command> pipeline) {
    for (int at = 0; at < pipeline.size(); at++) {
      if (pipeline.get(at) instanceof OutputLookupCommand) {
        return at;
      }
    }
    return -1;
  }

  /**
   * Takes a page of the listing ({@link EventListing#carryingListedNames}: each row's listed fields
   * and those it was left without in hidden columns); always true: every row goes into the table.
   */
  boolean add(Page page) {
    Block listed = page.block(ListingColumns.LISTED_NAMES);
    Block cleared = page.block(ListingColumns.CLEARED_NAMES);
    // the extraction reads the event's own text, which the page carries where a command changed it
    Block raw = page.block(ListingColumns.EVENT_RAW);
    Block sourcetype = page.block(ListingColumns.EVENT_SOURCETYPE);
    if (raw == null) {
      raw = page.block(EventFields.RAW);
      sourcetype = page.block(EventFields.SOURCETYPE);
    }
    // the columns in the order the rows first list them
    for (int p = 0; p < page.positionCount(); p++) {
      listed.getValues(p).forEach(name -> table.column((String) name));
    }
    int[] target = new int[page.schema().size()];
    for (int c = 0; c < target.length; c++) {
      String name = page.schema().column(c).name();
      target[c] = HIDDEN.contains(name) ? -1 : table.indexOf(name);
    }
    for (int p = 0; p < page.positionCount(); p++) {
      String[] row = table.row();
      List<Object> lists = listed.getValues(p);
      for (int c = 0; c < target.length; c++) {
        // a row's empty cell of a column it lists: never extracted; of one it does not list (the
        // listing shows no value another row made a column of): extracted as any unlisted cell
        if (target[c] >= 0
            && (!page.block(c).isNull(p) || lists.contains(page.schema().column(c).name()))) {
          table.set(row, target[c], Values.valuesOf(page.block(c), p));
        }
      }
      Set<String> gone = new HashSet<>();
      cleared.getValues(p).forEach(name -> gone.add((String) name));
      rows.add(
          new Kept(
              raw == null ? null : (String) raw.getObject(p),
              sourcetype == null ? null : (String) sourcetype.getObject(p),
              gone));
    }
    if (!answered) {
      answered = !out.test(without(page));
    }
    return true;
  }

  /** The listing's hidden columns, not part of the answer. */
  private static final Set<String> HIDDEN =
      Set.of(
          ListingColumns.FIELD_NAMES,
          ListingColumns.LISTED_NAMES,
          ListingColumns.CLEARED_NAMES,
          ListingColumns.EVENT_RAW,
          ListingColumns.EVENT_SOURCETYPE,
          io.quarry.ql.exec.EventText.OWN_RAW);

  /**
   * The input is over: the table is written, a row's cell of a column its page did not have
   * extracted from its event (unless the commands left it without the field).
   */
  void finish() {
    int[] extracted = {-1}; // the row whose extraction is held (the table asks row by row)
    FieldExtractor[] extractor = {null};
    writer.write(
        command.table(),
        table.table(
            (r, column) -> {
              Kept row = rows.get(r);
              if (!extract || row.raw() == null || row.cleared().contains(column)) {
                return null;
              }
              if (extracted[0] != r) {
                extracted[0] = r;
                extractor[0] = new FieldExtractor(row.raw(), sourcetypes.forName(row.sourcetype()));
              }
              return LookupTable.cellText(column, extractor[0].values(column));
            }));
    close();
  }

  void close() {
    rows.clear();
    table.clear();
  }

  /** {@code page} without the listing's hidden columns. */
  private static Page without(Page page) {
    List<Schema.Column> columns = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    for (int c = 0; c < page.schema().size(); c++) {
      if (!HIDDEN.contains(page.schema().column(c).name())) {
        columns.add(page.schema().column(c));
        blocks.add(page.block(c));
      }
    }
    return new Page(new Schema(columns), blocks, page.positionCount());
  }
}
