package io.quarry.codecs.block;

import io.quarry.codecs.store.Event;
import io.quarry.codecs.store.EventFields;
import io.quarry.codecs.store.SmallFieldMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A block's columns and each event's values in them, gathered in one walk over the events' fields
 * for {@link EventBlockWriter}: {@code host}, {@code source} and {@code sourcetype} first, then
 * every index-time field in first-seen order, each event's values at its position in the block (no
 * values: null; a column named elsewhere: no values at all).
 *
 * <p>An event's field goes to its column by position: the column of the field at the same place in
 * the event before, when that event named it by the same {@code String} instance (a batch's events
 * share their field names' instances, so an access log's events all take this way), else one hash
 * lookup by name. The columns were gathered one at a time before, each asking every event's map for
 * its name: a lookup per column per event, whether the event had the field or not.
 */
final class BlockColumnValues {
  private static final int DEFAULT_COLUMNS = 3;

  private final List<String> names;
  private final List<List<String>[]> values;

  private BlockColumnValues(List<String> names, List<List<String>[]> values) {
    this.names = names;
    this.values = values;
  }

  /**
   * The columns of {@code events} and their values, but for the columns named in {@code elsewhere}:
   * their names only (the caller writes no values for them).
   */
  static BlockColumnValues of(List<Event> events, Set<String> elsewhere) {
    int count = events.size();
    List<String> names =
        new ArrayList<>(List.of(EventFields.HOST, EventFields.SOURCE, EventFields.SOURCETYPE));
    List<List<String>[]> values = new ArrayList<>();
    for (int c = 0; c < DEFAULT_COLUMNS; c++) {
      values.add(elsewhere.contains(names.get(c)) ? null : newColumn(count));
    }
    List<String>[] hosts = values.get(0);
    List<String>[] sources = values.get(1);
    List<String>[] sourcetypes = values.get(2);
    Map<String, Integer> positions = new HashMap<>();
    // the previous event's field names by place, and their columns
    String[] lastNames = new String[4];
    int[] lastColumns = new int[4];
    for (int i = 0; i < count; i++) {
      Event event = events.get(i);
      // a default column held elsewhere (each event has exactly one non-empty host, source or
      // sourcetype: the block keeps them as its value or as codes, not here) gathers nothing
      if (hosts != null) {
        hosts[i] = List.of(event.host());
      }
      if (sources != null) {
        sources[i] = List.of(event.source());
      }
      if (sourcetypes != null) {
        sourcetypes[i] = List.of(event.sourcetype());
      }
      Map<String, List<String>> fields = event.indexedFields();
      // an access log's fields read by index, other maps through their iterator
      SmallFieldMap small = fields instanceof SmallFieldMap map ? map : null;
      Iterator<Map.Entry<String, List<String>>> entries =
          small == null ? fields.entrySet().iterator() : null;
      for (int place = 0, size = fields.size(); place < size; place++) {
        String name;
        List<String> fieldValues;
        if (small != null) {
          name = small.name(place);
          fieldValues = small.values(place);
        } else {
          Map.Entry<String, List<String>> field = entries.next();
          name = field.getKey();
          fieldValues = field.getValue();
        }
        int column;
        if (place < lastNames.length && lastNames[place] == name) {
          column = lastColumns[place];
        } else {
          Integer placed = positions.get(name);
          column =
              placed != null
                  ? placed
                  : columnOf(name, names, values, positions, elsewhere.contains(name) ? -1 : count);
          if (place >= lastNames.length) {
            lastNames = Arrays.copyOf(lastNames, 2 * place);
            lastColumns = Arrays.copyOf(lastColumns, 2 * place);
          }
          lastNames[place] = name;
          lastColumns[place] = column;
        }
        List<String>[] columnValues = values.get(column);
        if (column >= DEFAULT_COLUMNS && columnValues != null) {
          // (a field named as a default one: the event's own value stays)
          columnValues[i] = fieldValues;
        }
      }
    }
    return new BlockColumnValues(names, values);
  }

  /**
   * The column of a field name the block has not placed yet: a new one after those seen, unless it
   * is one of the default fields' names (then that column, where the event's own {@code host},
   * {@code source} or {@code sourcetype} stays the value, as the columns by name kept it); {@code
   * count} -1 for a column whose values are not gathered.
   */
  private static int columnOf(
      String name,
      List<String> names,
      List<List<String>[]> values,
      Map<String, Integer> positions,
      int count) {
    int column = names.indexOf(name);
    if (column < 0) {
      column = names.size();
      names.add(name);
      values.add(count < 0 ? null : newColumn(count));
    }
    positions.put(name, column);
    return column;
  }

  @SuppressWarnings("unchecked")
  private static List<String>[] newColumn(int count) {
    return new List[count]; // null: the event has no value
  }

  /** The number of columns. */
  int size() {
    return names.size();
  }

  /** Column {@code c}'s field name. */
  String name(int c) {
    return names.get(c);
  }

  /**
   * Column {@code c}'s values, one list per event (null where the event has none); null for a
   * column named elsewhere.
   */
  List<String>[] values(int c) {
    return values.get(c);
  }
}
