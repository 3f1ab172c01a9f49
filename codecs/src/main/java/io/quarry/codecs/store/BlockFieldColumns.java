package io.quarry.codecs.store;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.NumericUtils;

/**
 * An event's index-time values as a block's columns hold them, for {@link BlockDocuments}: the walk
 * over each event's fields that tallies a block's keyword values, adds its keywords and counts the
 * events with a value of each field ({@link #columnsOf}), and one field's column ({@link #column}).
 */
final class BlockFieldColumns {
  private BlockFieldColumns() {}

  /**
   * Event {@code e} of the block with its index-time values (typed by {@code options}) as the event
   * layout reads them back ({@link #column}), in one pass over its fields: each keyword column's
   * values go to {@code tally}, and to {@code keywords} where the block has not had them before (a
   * field of another type gives {@code keywords} its every value), and each field with a value left
   * counts one event in {@code complete}.
   */
  static Event columnsOf(
      IndexOptions options,
      Event event,
      int e,
      BlockKeywords keywords,
      BlockValueTally tally,
      Map<String, int[]> complete,
      FieldSlot[] slots) {
    Map<String, List<String>> indexed = event.indexedFields();
    if (indexed.isEmpty()) {
      return event;
    }
    Map<String, List<String>> fields = null; // null while every column equals the event's values
    // an access log's fields read by index, other maps through their iterator
    SmallFieldMap small = indexed instanceof SmallFieldMap map ? map : null;
    Iterator<Map.Entry<String, List<String>>> entries =
        small == null ? indexed.entrySet().iterator() : null;
    for (int position = 0, count = indexed.size(); position < count; position++) {
      String name;
      List<String> values;
      if (small != null) {
        name = small.name(position);
        values = small.values(position);
      } else {
        Map.Entry<String, List<String>> field = entries.next();
        name = field.getKey();
        values = field.getValue();
      }
      FieldSlot slot = position < slots.length ? slots[position] : null;
      if (slot == null || slot.name != name) {
        IndexedFieldType type = options.fieldType(name);
        slot =
            new FieldSlot(
                name,
                keywords.seen(name),
                type,
                type == IndexedFieldType.KEYWORD ? tally.field(name) : null,
                complete.computeIfAbsent(name, f -> new int[1]));
        if (position < slots.length) {
          slots[position] = slot;
        }
      }
      List<String> column = column(slot.type, values);
      if (slot.counts == null) {
        for (int v = 0; v < values.size(); v++) {
          keywords.add(slot.seen, values.get(v));
        }
      } else if (!column.isEmpty()) {
        // a keyword column holds the event's distinct values: each new to the block is a keyword
        slot.counts.countEvent();
        for (int v = 0; v < column.size(); v++) {
          String value = column.get(v);
          if (slot.counts.add(value, e)) {
            keywords.add(slot.seen, value);
          }
        }
      }
      if (!column.isEmpty()) {
        slot.complete[0]++;
      }
      if (fields == null && column != values) {
        fields = new HashMap<>();
        for (Map.Entry<String, List<String>> before : indexed.entrySet()) {
          if (before.getKey().equals(name)) {
            break;
          }
          fields.put(before.getKey(), before.getValue());
        }
      }
      if (fields != null && !column.isEmpty()) {
        fields.put(name, column);
      }
    }
    if (fields == null) {
      return event; // the common case: single keyword values, kept as they are
    }
    return event.withIndexedFields(fields);
  }

  /**
   * What {@link #columnsOf} needs of the field at one position among an event's fields: the events
   * of a block name the same fields in the same order (the same name instances), so each is looked
   * up by name only when the name at its position changes.
   */
  record FieldSlot(
      String name,
      BlockKeywords.Seen seen,
      IndexedFieldType type,
      BlockValueTally.FieldCounts counts, // null for a field that is not a keyword
      int[] complete) {
    static final int SLOTS = 8;
  }

  /**
   * One field's values as the event layout's doc values return them: keywords as sorted-set doc
   * values hold them (distinct, in UTF-8 byte order), numbers parsed, in numeric order, printed by
   * {@code Long.toString} / {@code Double.toString}; values that do not parse are left out.
   */
  static List<String> column(IndexedFieldType type, List<String> values) {
    switch (type) {
      case KEYWORD -> {
        if (values.size() == 1) {
          return values;
        }
        BytesRef[] sorted = values.stream().map(BytesRef::new).distinct().toArray(BytesRef[]::new);
        Arrays.sort(sorted);
        return Arrays.stream(sorted).map(BytesRef::utf8ToString).toList();
      }
      case LONG -> {
        return values.stream()
            .filter(v -> type.problem(v) == null)
            .mapToLong(v -> Long.parseLong(v.strip()))
            .sorted()
            .mapToObj(Long::toString)
            .toList();
      }
      case DOUBLE -> {
        return values.stream()
            .filter(v -> type.problem(v) == null)
            .mapToLong(v -> NumericUtils.doubleToSortableLong(Double.parseDouble(v.strip())))
            .sorted()
            .mapToObj(v -> Double.toString(NumericUtils.sortableLongToDouble(v)))
            .toList();
      }
      default -> throw new AssertionError(type);
    }
  }
}
