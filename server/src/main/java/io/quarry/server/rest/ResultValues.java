package io.quarry.server.rest;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.ql.exec.Values;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Renders typed values as Splunk's REST API shows them: text, with times in ISO-8601. */
final class ResultValues {
  private static final DateTimeFormatter SPLUNK_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSxxx").withZone(ZoneOffset.UTC);

  private ResultValues() {}

  /** The value at a position as text, or null when it is null. */
  static String text(Block block, int position) {
    if (block.isNull(position)) {
      return null;
    }
    if (block.dataType() == DataType.TIMESTAMP) {
      long micros = ((LongBlock) block).getLong(position);
      return SPLUNK_TIME.format(
          Instant.ofEpochSecond(
              Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L));
    }
    return Values.toText(block.getObject(position));
  }
}
