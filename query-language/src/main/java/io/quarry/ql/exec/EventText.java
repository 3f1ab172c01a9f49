package io.quarry.ql.exec;

import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.RenameCommand;

/**
 * Where a {@code search} of bare words or phrases matches each event's own text. A term matches a
 * row's current {@code _raw}, whatever an {@code eval}, {@code rename}, {@code rex} or plugin
 * command set it to; the event's stored raw text where an {@code eval} left {@code _raw} null
 * (after {@code table}/{@code fields} such a row has no {@code _raw}); a row without {@code _raw} —
 * an aggregation's, a generator's, an event after {@code fields - _raw}, a {@code table} or {@code
 * rename _raw AS r} — by its field values ({@link io.quarry.ql.eval.FieldValueTerm}), so the
 * planner gives it every field ({@link EventTextCommands#withoutRaw}, {@link InputFields#of}:
 * {@code *}); a row that is no event but holds a {@code _raw} by that text. On pages a term matches
 * the position's {@code _raw} column ({@link io.quarry.ql.eval.SearchFilter} with the search's
 * {@link RawTermMatcher}). That column is the event's text over a page source of events as long as
 * every command before the search keeps the events and leaves {@code _raw} the event's own ({@link
 * EventTextCommands#keepsEventText}); the planner asks this only of the commands that take events
 * ({@link PageChain#supportsOverEvents}, {@link ReduceCoverage#supportsOverEvents}). Where a
 * command before the search changed {@code _raw} or brought in rows that are not events but kept
 * its input's rows events ({@link EventTextCommands#keepsEventRow}), the pages carry each event's
 * own text in {@link #OWN_RAW} ({@link #withOwnText}, an event listing's hidden column) and the
 * other rows a null there ({@link #markingOtherRows}): such a row is matched on the {@code _raw} it
 * holds, or its fields.
 */
public final class EventText {
  private static final String RAW = "_raw";

  /**
   * A page's hidden column of each event's own raw text, where the commands changed {@code _raw}
   * (an event listing's, {@code server.search.EventListing#withEventText}): where a page carries
   * it, a bare word matches it at a position whose {@code _raw} is null (an {@code eval} nulled it;
   * a {@code _raw} the commands set is matched itself: {@code io.quarry.ql.eval.SearchFilter}); the
   * NUL keeps it apart from any field a search can name.
   */
  public static final String OWN_RAW = "\u0000event _raw";

  /**
   * A hidden column of the fields each row that is no event holds, in its own page's column order
   * ({@link #markingOtherRows}): the names such a row lists, kept apart from the order of any page
   * the row is later copied into with others (a re-paging, a sort).
   */
  public static final String OTHER_ROW_FIELDS = "\u0000other row fields";

  private EventText() {}

  /**
   * Whether every row {@code commands} leave — a query's leading commands, the first a {@code
   * search} of events — is an event still holding its own {@code _raw}: each command after that
   * search keeps the events' raw text ({@link EventTextCommands#keepsEventText}) and none removes
   * {@code _raw} ({@link EventTextCommands#removesRaw}: {@code fields - _raw}, a {@code table} not
   * naming it, {@code rename _raw AS r}). Not so after an aggregation, a generating command ({@code
   * makeresults}), a subsearch's rows ({@code append}), an {@code eval}, {@code rex} or {@code
   * rename} writing {@code _raw}, or any command not known to keep the text (a third-party one):
   * such a command can hand on a row without {@code _raw}. {@code collect} asks it: only a summary
   * made of a row's fields can be read wrong under its sourcetype.
   */
  public static boolean keepsEventsRaw(java.util.List<io.quarry.ql.ast.Command> commands) {
    if (commands.isEmpty() || !(commands.get(0) instanceof io.quarry.ql.ast.SearchCommand)) {
      return false;
    }
    for (io.quarry.ql.ast.Command command : commands.subList(1, commands.size())) {
      if (!EventTextCommands.keepsEventText(command) || EventTextCommands.removesRaw(command)) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code page} with its {@code _raw} block also under {@link #OWN_RAW} (the same block): a source
   * page of events whose commands change {@code _raw}, or bring in rows that are not events, before
   * a bare word that must match each event's own text ({@link
   * ReduceCoverage#supportsOverEventsWithOwnText}). A page without {@code _raw} is returned as it
   * is.
   */
  public static Page withOwnText(Page page) {
    Block raw = page.block(RAW);
    return raw == null || page.block(OWN_RAW) != null ? page : page.withColumn(OWN_RAW, raw);
  }

  /**
   * {@code after}, what a {@code fields}/{@code table} made of {@code before}, with the events' own
   * text ({@link #OWN_RAW}) decided by the command, not by the columns a page happens to keep: a
   * command keeping {@code _raw} ({@code table *}, {@code table _raw, n}, {@code fields - x}) keeps
   * it at each position that still holds a {@code _raw} (a bare word there asks its event's text);
   * a row whose {@code _raw} is null is listed without one (Splunk's {@code table} lists no null
   * field), so it gets a null there and a term asks its fields, as after a command removing {@code
   * _raw} ({@code table a, b}, {@code fields - _raw}), which drops the column.
   */
  static Page ownTextAfterProjection(Page before, Page after, boolean keepsRaw) {
    Block own = before.block(OWN_RAW);
    Page without = withoutColumn(after, OWN_RAW);
    if (!keepsRaw || own == null) {
      return without;
    }
    Block raw = after.block(RAW);
    BytesBlock.Builder kept = BytesBlock.builder(after.positionCount());
    for (int p = 0; p < after.positionCount(); p++) {
      if (raw == null || raw.isNull(p) || own.isNull(p)) {
        kept.appendNull();
      } else {
        kept.append(Values.toText(Values.valuesOf(own, p).get(0)));
      }
    }
    return without.withColumn(OWN_RAW, kept.build());
  }

  /**
   * {@code after}, what a {@code rename} made of {@code before}: the events' own text ({@link
   * #OWN_RAW}) kept unless the command moved {@code _raw} away ({@code rename _raw AS r}: the row
   * has no {@code _raw}, a term asks its fields); decided by the command, not the page's columns.
   */
  static Page ownTextAfterRename(Page before, Page after, RenameCommand command) {
    Block own = before.block(OWN_RAW);
    Page without = withoutColumn(after, OWN_RAW);
    return own == null || EventTextCommands.movesRawAway(command)
        ? without
        : without.withColumn(OWN_RAW, own);
  }

  private static Page withoutColumn(Page page, String name) {
    int column = page.schema().indexOf(name);
    if (column < 0) {
      return page;
    }
    java.util.List<io.quarry.plugin.api.data.Schema.Column> columns =
        new java.util.ArrayList<>(page.schema().columns());
    java.util.List<Block> blocks = new java.util.ArrayList<>(page.blocks());
    columns.remove(column);
    blocks.remove(column);
    return new Page(new io.quarry.plugin.api.data.Schema(columns), blocks, page.positionCount());
  }

  /**
   * The operator after an {@code append}'s or {@code appendcols}' over pages that carry {@link
   * #OWN_RAW}: each page that one hands on without that column — the subsearch's rows, which are
   * not events — gets it, null at every position, so a bare word asks the {@code _raw} they hold,
   * else their fields ({@code io.quarry.ql.eval.SearchFilter}); its input's pages pass on as they
   * came, each event still with its own text. Such a page also gets {@link #OTHER_ROW_FIELDS}.
   */
  static PageTransformOperator markingOtherRows() {
    return new PageTransformOperator() {
      @Override
      protected Page process(Page page) {
        if (page.block(OWN_RAW) != null) {
          return page;
        }
        BytesBlock.Builder none = BytesBlock.builder(page.positionCount());
        BytesBlock.Builder held = BytesBlock.builder(page.positionCount());
        for (int p = 0; p < page.positionCount(); p++) {
          none.appendNull();
          appendHeldNames(page, p, held);
        }
        return page.withColumn(OWN_RAW, none.build()).withColumn(OTHER_ROW_FIELDS, held.build());
      }
    };
  }

  /** The names of the columns holding a value at {@code position}, in the page's order. */
  private static void appendHeldNames(Page page, int position, BytesBlock.Builder into) {
    java.util.List<String> names = heldNames(page, position);
    if (names.isEmpty()) {
      into.appendNull();
    } else {
      into.beginPositionEntry();
      names.forEach(into::append);
      into.endPositionEntry();
    }
  }

  /**
   * The fields a row holds a value in, in its page's column order: its columns but the hidden ones
   * (named with a NUL) and a plugin command's row column.
   */
  public static java.util.List<String> heldNames(Page page, int position) {
    java.util.List<String> names = new java.util.ArrayList<>();
    for (int c = 0; c < page.schema().size(); c++) {
      String name = page.schema().column(c).name();
      if (!name.startsWith("\u0000")
          && !name.equals(PluginOperators.ROW_COLUMN)
          && !page.block(c).isNull(position)) {
        names.add(name);
      }
    }
    return names;
  }
}
