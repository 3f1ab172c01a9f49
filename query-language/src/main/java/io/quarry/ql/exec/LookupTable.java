package io.quarry.ql.exec;

import java.util.List;

/**
 * A lookup table: named columns and rows of text, as uploaded (a CSV file with a header).
 *
 * @param columns the header
 * @param rows one list per row, as long as {@code columns} (missing cells are empty text)
 */
public record LookupTable(List<String> columns, List<List<String>> rows) {
  public LookupTable {
    columns = List.copyOf(columns);
    rows = List.copyOf(rows);
  }

  /** Where lookup tables come from (the server's lookup store). */
  @FunctionalInterface
  public interface Source {
    /** The table, or null when none has that name. */
    LookupTable table(String name);

    /** No tables at all. */
    Source NONE = name -> null;
  }

  /** Where {@code outputlookup} writes tables (the server's lookup store). */
  @FunctionalInterface
  public interface Writer {
    /** Stores the table, replacing one of the same name. */
    void write(String name, LookupTable table);

    /** Writing is not possible here. */
    Writer NONE =
        (name, table) -> {
          throw new IllegalStateException("lookup tables cannot be written here");
        };
  }
}
