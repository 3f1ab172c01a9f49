package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code fieldsummary}'s state, fed by {@link FieldSummaryOperator}: per field, in order of first
 * appearance, {@code count} (rows that have it), the distinct values' counts (at most {@value
 * #MAX_TRACKED}; past that {@code is_exact} is false and counts are of the values seen first), and
 * over the numeric values {@code numeric_count}, {@code min}, {@code max}, {@code mean}; {@code
 * values} is the {@code maxvals} most common values as Splunk's JSON text {@code
 * [{"value":"…","count":N},…]}. {@code _time} is summarised in epoch seconds ({@link TimeField}).
 * Fields and tracked values are counted on the search's memory.
 */
final class FieldSummaries {
  /** Distinct values tracked per field; past this, counts are of the values seen first. */
  static final int MAX_TRACKED = 10_000;

  private final int maxValues;
  private final Map<String, Summary> fields = new LinkedHashMap<>();
  private final MemoryTracker memory;

  private static final class Summary {
    long count;
    long numericCount;
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    double sum;
    boolean exact = true;
    final Map<String, Long> values = new HashMap<>();
  }

  FieldSummaries(int maxValues, MemoryTracker memory) {
    this.maxValues = maxValues;
    this.memory = requireNonNull(memory, "memory is null");
  }

  /**
   * Places {@code name} after the fields seen so far, unless it is one of them: its first
   * appearance, before its values are added ({@link #add} does it too).
   */
  void register(String name) {
    if (!fields.containsKey(name)) {
      fields.put(name, new Summary());
      memory.add(MemoryTracker.ENTRY_BYTES * 2 + MemoryTracker.valueBytes(name));
    }
  }

  /** One row's values of a field (none: the row does not have it). */
  void add(String name, List<Object> values) {
    if (values.isEmpty()) {
      return;
    }
    Summary summary = fields.get(name);
    if (summary == null) {
      summary = new Summary();
      fields.put(name, summary);
      memory.add(MemoryTracker.ENTRY_BYTES * 2 + MemoryTracker.valueBytes(name));
    }
    summary.count++;
    if (TimeField.is(name)) {
      values = TimeField.seconds(values);
    }
    for (Object value : values) {
      double number = Values.toNumber(value);
      if (!Double.isNaN(number)) {
        summary.numericCount++;
        summary.min = Math.min(summary.min, number);
        summary.max = Math.max(summary.max, number);
        summary.sum += number;
      }
      String text = Values.toText(value);
      Long seen = summary.values.get(text);
      if (seen != null) {
        summary.values.put(text, seen + 1);
      } else if (summary.values.size() < MAX_TRACKED) {
        summary.values.put(text, 1L);
        memory.add(MemoryTracker.ENTRY_BYTES / 2 + MemoryTracker.valueBytes(text) + 24);
      } else {
        summary.exact = false;
      }
    }
  }

  /** One result row per field, in order of first appearance; nothing is held after. */
  List<Map<String, Object>> results() {
    List<Map<String, Object>> results = new ArrayList<>(fields.size());
    for (Map.Entry<String, Summary> field : fields.entrySet()) {
      Summary summary = field.getValue();
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("field", field.getKey());
      out.put("count", summary.count);
      out.put("distinct_count", (long) summary.values.size());
      out.put("is_exact", summary.exact);
      out.put("numeric_count", summary.numericCount);
      if (summary.numericCount > 0) {
        out.put("min", summary.min);
        out.put("max", summary.max);
        out.put("mean", summary.sum / summary.numericCount);
      }
      out.put("values", topValues(summary));
      results.add(out);
    }
    clear();
    return results;
  }

  /** Drops every field's state. */
  void clear() {
    fields.clear();
    memory.release();
  }

  private String topValues(Summary summary) {
    List<Map.Entry<String, Long>> top = new ArrayList<>(summary.values.entrySet());
    top.sort(
        Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
            .thenComparing(Map.Entry.comparingByKey()));
    StringBuilder json = new StringBuilder("[");
    for (int i = 0; i < Math.min(maxValues, top.size()); i++) {
      if (i > 0) {
        json.append(',');
      }
      json.append("{\"value\":\"")
          .append(escape(top.get(i).getKey()))
          .append("\",\"count\":")
          .append(top.get(i).getValue())
          .append('}');
    }
    return json.append(']').toString();
  }

  private static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
