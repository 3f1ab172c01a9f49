package io.quarry.ql.exec;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A lookup table: named columns and rows of text, as uploaded (a CSV file with a header).
 *
 * @param columns the header
 * @param rows one list per row, as long as {@code columns} (missing cells are empty text)
 */
public record LookupTable(List<String> columns, List<List<String>> rows) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}");

  public LookupTable {
    columns = List.copyOf(columns);
    rows = List.copyOf(rows);
  }

  /**
   * The estimated heap size of the table: each row's list and cells (see {@link
   * MemoryTracker#valueBytes}), what a search that uses it is counted for.
   */
  public long estimatedBytes() {
    long bytes = MemoryTracker.ENTRY_BYTES;
    for (String column : columns) {
      bytes += MemoryTracker.valueBytes(column);
    }
    for (List<String> row : rows) {
      bytes += MemoryTracker.ENTRY_BYTES;
      for (String cell : row) {
        bytes += MemoryTracker.valueBytes(cell);
      }
    }
    return bytes;
  }

  /**
   * Why a lookup table cannot have this name, or null when it can: names are file names in one
   * directory, so no path separators, no leading dot, no {@code ..}. The parser checks the names a
   * query uses, the lookup store every name it is given.
   */
  public static String invalidName(String name) {
    return NAME.matcher(name).matches()
        ? null
        : "lookup names are 1-128 letters, digits, '_', '-' and '.', not starting with '.'";
  }

  /** Where lookup tables come from (the server's lookup store). */
  @FunctionalInterface
  public interface Source {
    /** The table, or null when none has that name. */
    LookupTable table(String name);

    /** No tables at all. */
    Source NONE = name -> null;
  }

  /**
   * A row's values of a field as {@code outputlookup} writes its cell: a multivalue joined with
   * line breaks, {@code _time} in epoch seconds (as Splunk writes it), no value an empty cell.
   */
  public static String cellText(String field, List<Object> values) {
    boolean time = TimeField.is(field);
    List<String> texts = new java.util.ArrayList<>(values.size());
    values.forEach(v -> texts.add(time ? TimeField.secondsText(v) : Values.toText(v)));
    return String.join("\n", texts);
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
