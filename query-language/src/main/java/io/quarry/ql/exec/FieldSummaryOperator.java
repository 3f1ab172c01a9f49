package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.FieldSummaryCommand;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code fieldsummary}: for every field any input row has (search-time extracted fields included,
 * see {@link Row#discoverableFieldNames}), emits {@code field}, {@code count} (rows that have it),
 * {@code distinct_count}, {@code is_exact} (false once more than {@value #MAX_TRACKED} distinct
 * values were seen), {@code numeric_count}, {@code min}, {@code max}, {@code mean} (over numeric
 * values) and {@code values}: the {@code maxvals} most common values as Splunk's JSON text {@code
 * [{"value":"…","count":N},…]}. Fields come out in order of first appearance. {@code _time} is
 * summarised in epoch seconds ({@link TimeField}).
 */
public final class FieldSummaryOperator implements RowSink {
  /** Distinct values tracked per field; past this, counts are of the values seen first. */
  static final int MAX_TRACKED = 10_000;

  private final int maxValues;
  private final RowSink downstream;
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

  public FieldSummaryOperator(FieldSummaryCommand command, RowSink downstream) {
    this(command, downstream, MemoryTracker.unbounded("fieldsummary"));
  }

  /** As above, its fields and tracked values counted by {@code memory} (the search's limit). */
  public FieldSummaryOperator(
      FieldSummaryCommand command, RowSink downstream, MemoryTracker memory) {
    this.memory = requireNonNull(memory, "memory is null");
    this.maxValues = command.maxValues();
    this.downstream = requireNonNull(downstream, "downstream is null");
  }

  @Override
  public boolean accept(Row row) {
    for (String name : row.discoverableFieldNames()) {
      List<Object> values = row.values(name);
      if (values.isEmpty()) {
        continue;
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
    return true;
  }

  @Override
  public void finish() {
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
      if (!downstream.accept(new MapRow(out))) {
        break;
      }
    }
    fields.clear();
    memory.release();
    downstream.finish();
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
