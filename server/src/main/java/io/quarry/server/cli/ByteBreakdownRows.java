package io.quarry.server.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rows of {@code quarry indexes --verbose}'s storage breakdown, for event and metric indexes
 * alike: one row per kind of file, largest first, with its share of the index and its bytes per
 * unit of what the index holds (raw byte or point).
 */
final class ByteBreakdownRows {
  private ByteBreakdownRows() {}

  /**
   * Adds one index's rows to {@code rows}.
   *
   * @param perLabel the column of bytes per unit ("per raw byte", "per point")
   * @param units what the bytes are divided by; at most 0 prints "-" (too little to say)
   */
  static void add(
      List<Map<String, String>> rows,
      String index,
      Map<String, Long> bytesByKind,
      String perLabel,
      long units) {
    long total = bytesByKind.values().stream().mapToLong(Long::longValue).sum();
    bytesByKind.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .forEach(
            kind -> {
              Map<String, String> row = new LinkedHashMap<>();
              row.put("index", index);
              row.put("holds", kind.getKey());
              row.put("bytes", megabytes(kind.getValue()));
              row.put(
                  "share",
                  total == 0
                      ? "-"
                      : String.format(Locale.ROOT, "%.1f%%", 100.0 * kind.getValue() / total));
              row.put(
                  perLabel,
                  units <= 0
                      ? "-"
                      : String.format(Locale.ROOT, "%.3f", (double) kind.getValue() / units));
              rows.add(row);
            });
  }

  /** Bytes as megabytes with one decimal. */
  static String megabytes(long bytes) {
    return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
  }
}
