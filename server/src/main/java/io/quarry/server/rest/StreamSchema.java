package io.quarry.server.rest;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The first rows of a result, held back until each column's one type for the whole result — and,
 * for a format that has one schema for the whole stream (CSV's header, Arrow's schema message),
 * that schema — can be fixed from them rather than from the first page alone: an event search finds
 * fields as it goes, {@code eval} may give a field numbers on one page and text on the next, and a
 * page of nulls is typed as text ({@link ResultEncoder}).
 *
 * <p>The schema is every column the held pages have, in order of first appearance, each typed by
 * widening what the pages' values need ({@link ResultValues#valueType}: a double block of whole
 * numbers needs a long, since a whole number is a double only where it shares a page with a
 * fraction): long and double make double, anything else mixed makes string, and a column that is
 * null throughout a page says nothing. A column with several values in some held row is multivalued
 * ({@link #multivalued}): a list column in Arrow, its single values lists of one. A result of at
 * most {@link #ROWS} rows (every event listing under the default cap, every {@code stats}) is thus
 * described exactly; a longer one may still bring a column or a type the schema lacks after the
 * sample, which the encoder counts and reports ({@link #misfits}).
 */
final class StreamSchema {
  /** Rows held before the schema is fixed (the default cap of an event listing). */
  static final int ROWS = 10_000;

  private final List<Page> pages = new ArrayList<>();
  private int rows;

  private boolean wholeDoublesAsLong;

  /**
   * Lets a double block of whole numbers be typed long ({@link ResultValues#valueType}): only where
   * no later value can be lost for it — the held pages are the whole result, or the format (JSON,
   * NDJSON) writes a later fraction as the value it is. Otherwise (Arrow's one schema cut short of
   * the result's end) a double block stays double, since a later fraction in a long column is sent
   * as null (review b41).
   */
  void wholeDoublesAsLong() {
    wholeDoublesAsLong = true;
  }

  /** Holds a page; true once the sample is full and the schema should be fixed. */
  boolean add(Page page) {
    pages.add(page);
    rows += page.positionCount();
    return rows >= ROWS;
  }

  private final Set<String> droppedColumns = new TreeSet<>();
  private long droppedValues;
  private long nulledValues;
  private long nulledMultivalues;

  /** The held pages, in order. */
  List<Page> pages() {
    return pages;
  }

  /** Forgets the held pages once they are encoded. */
  void release() {
    pages.clear();
  }

  /** A later page's column the schema lacks: its non-null values are left out. */
  void dropped(String column, Block block) {
    long values = block.positionCount() - nullCount(block);
    if (values > 0) {
      droppedColumns.add(column);
      droppedValues += values;
    }
  }

  /** A later value the schema's type cannot hold: sent as null. */
  void nulled() {
    nulledValues++;
  }

  /** A later multivalue in a column the sample had only single values in: sent as null. */
  void nulledMultivalue() {
    nulledValues++;
    nulledMultivalues++;
  }

  /**
   * What did not fit the schema, for the server's log (the formats have no room for messages), or
   * null when everything fit.
   */
  String misfits() {
    if (droppedValues == 0 && nulledValues == 0) {
      return null;
    }
    return "after the first "
        + ROWS
        + " rows the result did not fit the stream's one schema: "
        + (droppedValues > 0
            ? droppedValues + " values of columns " + droppedColumns + " left out"
            : "")
        + (droppedValues > 0 && nulledValues > 0 ? ", " : "")
        + (nulledValues > 0
            ? nulledValues
                + " values of another type sent as null"
                + (nulledMultivalues > 0
                    ? " (" + nulledMultivalues + " of them multivalues in a single-valued column)"
                    : "")
            : "")
        + "; JSON and NDJSON carry every field, or fix the columns with | table, | fields or"
        + " eval tostring()";
  }

  /**
   * Each column of the held pages, in order of first appearance, with the type that holds all its
   * values there (null: it has none).
   */
  Map<String, DataType> types() {
    Map<String, DataType> types = new LinkedHashMap<>();
    for (Page page : pages) {
      for (int column = 0; column < page.schema().size(); column++) {
        String name = page.schema().column(column).name();
        Block block = page.block(column);
        DataType seen =
            allNull(block)
                ? null
                : wholeDoublesAsLong ? ResultValues.valueType(block) : block.dataType();
        types.put(name, widen(types.get(name), seen));
      }
    }
    return types;
  }

  /** The schema of the held pages (empty for none): {@link #types}, text for a column of nulls. */
  Schema schema() {
    Map<String, DataType> types = types();
    List<Schema.Column> columns = new ArrayList<>(types.size());
    types.forEach(
        (name, type) ->
            columns.add(new Schema.Column(name, type == null ? DataType.STRING : type)));
    return new Schema(columns);
  }

  /** The columns of the held pages that have several values in some row. */
  Set<String> multivalued() {
    Set<String> names = new HashSet<>();
    for (Page page : pages) {
      for (int column = 0; column < page.schema().size(); column++) {
        if (hasMultivalue(page.block(column))) {
          names.add(page.schema().column(column).name());
        }
      }
    }
    return names;
  }

  private static boolean hasMultivalue(Block block) {
    if (!block.mayHaveMultivaluedFields()) {
      return false;
    }
    for (int position = 0; position < block.positionCount(); position++) {
      if (block.getValueCount(position) > 1) {
        return true;
      }
    }
    return false;
  }

  /** The type that holds values of both (null: nothing known yet). */
  static DataType widen(DataType known, DataType seen) {
    if (known == null) {
      return seen;
    }
    if (seen == null || seen == known) {
      return known;
    }
    if ((known == DataType.LONG && seen == DataType.DOUBLE)
        || (known == DataType.DOUBLE && seen == DataType.LONG)) {
      return DataType.DOUBLE;
    }
    return DataType.STRING;
  }

  private static boolean allNull(Block block) {
    return nullCount(block) == block.positionCount();
  }

  private static int nullCount(Block block) {
    int nulls = 0;
    for (int position = 0; position < block.positionCount(); position++) {
      if (block.isNull(position)) {
        nulls++;
      }
    }
    return nulls;
  }
}
