package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.LookupCommand;
import io.quarry.ql.ast.LookupCommand.FieldMapping;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A lookup table indexed by a {@code lookup}'s key columns, and what the command gives a result,
 * for the page stage ({@link LookupOperator}): a result's key is each key field's first value as
 * text ({@code _time} as epoch seconds); the table rows with that exact key (case-sensitive) give
 * each output field their non-empty values of its column, distinct, in table order (several: a
 * multivalue, none: the field removed). The outputs are the command's, or every non-key column of
 * the table.
 */
final class LookupIndex {
  private final String table;
  private final Map<List<String>, List<List<String>>> index = new HashMap<>();
  private final List<FieldMapping> keys;
  private final List<FieldMapping> outputs;
  private final int[] outputColumns;

  /**
   * @throws IllegalArgumentException when the table lacks a key or output column
   */
  LookupIndex(LookupCommand command, LookupTable table) {
    requireNonNull(command, "command is null");
    requireNonNull(table, "table is null");
    this.table = command.table();
    this.keys = command.keys();
    int[] keyColumns = new int[keys.size()];
    for (int i = 0; i < keyColumns.length; i++) {
      keyColumns[i] = column(table, keys.get(i).column());
    }
    List<FieldMapping> chosen = new ArrayList<>(command.outputs());
    if (chosen.isEmpty()) {
      for (String column : table.columns()) {
        if (keys.stream().noneMatch(k -> k.column().equals(column))) {
          chosen.add(new FieldMapping(column, column));
        }
      }
    }
    this.outputs = List.copyOf(chosen);
    this.outputColumns = new int[outputs.size()];
    for (int i = 0; i < outputColumns.length; i++) {
      outputColumns[i] = column(table, outputs.get(i).column());
    }
    for (List<String> row : table.rows()) {
      List<String> key = new ArrayList<>(keyColumns.length);
      for (int column : keyColumns) {
        key.add(row.get(column));
      }
      index.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
    }
  }

  private int column(LookupTable lookup, String name) {
    int at = lookup.columns().indexOf(name);
    if (at < 0) {
      throw new IllegalArgumentException(
          "lookup table '"
              + table
              + "' has no column '"
              + name
              + "' (it has "
              + String.join(", ", lookup.columns())
              + ")");
    }
    return at;
  }

  /** The fields that give the key, in order. */
  List<FieldMapping> keys() {
    return keys;
  }

  /** The fields the command sets, in order. */
  List<FieldMapping> outputs() {
    return outputs;
  }

  /** Key field {@code field}'s first value as the key text it is compared as. */
  static String keyText(String field, Object firstValue) {
    return TimeField.is(field) ? TimeField.secondsText(firstValue) : Values.toText(firstValue);
  }

  /** The table rows with {@code key}, or null. */
  List<List<String>> matches(List<String> key) {
    return index.get(key);
  }

  /**
   * Output {@code i}'s value for {@code matches}: its column's non-empty values, distinct, in table
   * order — one a text, several a list, none null (the field is removed).
   */
  Object output(List<List<String>> matches, int i) {
    List<Object> values = new ArrayList<>();
    for (List<String> match : matches) {
      String value = match.get(outputColumns[i]);
      if (!value.isEmpty() && !values.contains(value)) {
        values.add(value);
      }
    }
    return values.isEmpty() ? null : values.size() == 1 ? values.get(0) : values;
  }

  /** Releases the index. */
  void clear() {
    index.clear();
  }
}
