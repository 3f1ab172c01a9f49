package io.quarry.server.cli;

import io.quarry.client.IndexSummary;
import io.quarry.client.JournalSummary;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rows of {@code quarry indexes --verbose}'s segment table: per index its buckets' layouts and
 * segments, then one row per kind of journal its segments hold (codec, level, fast or compact,
 * format version) with their segments, bytes and bytes per raw byte of that kind — the compression
 * the segments actually hold, not the setting.
 */
final class JournalRows {
  static final List<String> FIELDS =
      List.of("index", "layouts", "segments", "journal", "of segments", "bytes", "per raw byte");

  private JournalRows() {}

  /** Adds {@code index}'s rows to {@code rows}: one per journal kind, or one when it has none. */
  static void add(List<Map<String, String>> rows, IndexSummary index) {
    List<JournalSummary> kinds = index.journal();
    if (kinds.isEmpty()) {
      rows.add(row(index, "-", "", "", ""));
      return;
    }
    for (JournalSummary kind : kinds) {
      rows.add(
          row(
              index,
              describe(kind),
              Integer.toString(kind.segments()),
              ByteBreakdownRows.megabytes(kind.bytes()),
              kind.rawBytes() == 0
                  ? "-"
                  : String.format(Locale.ROOT, "%.3f", (double) kind.bytes() / kind.rawBytes())));
    }
  }

  /** A journal kind in a word or three: {@code zstd 12 compact v2}. */
  static String describe(JournalSummary kind) {
    return kind.codec()
        + (kind.level() < 0 ? "" : " " + kind.level())
        + (kind.compact() ? " compact" : " fast")
        + " v"
        + kind.formatVersion();
  }

  private static Map<String, String> row(
      IndexSummary index, String journal, String segments, String bytes, String perRaw) {
    Map<String, String> row = new LinkedHashMap<>();
    row.put("index", index.name());
    row.put("layouts", index.layouts().isEmpty() ? "-" : String.join(", ", index.layouts()));
    row.put("segments", Integer.toString(index.segments()));
    row.put("journal", journal);
    row.put("of segments", segments);
    row.put("bytes", bytes);
    row.put("per raw byte", perRaw);
    return row;
  }
}
