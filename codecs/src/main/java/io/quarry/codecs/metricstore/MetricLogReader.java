package io.quarry.codecs.metricstore;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads one metric log file's bytes record by record (the grammar is {@link MetricLog}'s), handing
 * each good record's batch on, and says where and why it stopped — without touching the file:
 * {@link MetricLog} replays with it on open (then cuts or quarantines what did not read), {@link
 * MetricFsck} checks with it.
 */
final class MetricLogReader {
  private MetricLogReader() {}

  /**
   * Where a read stopped.
   *
   * @param position the byte after the last good record (0 when the header is bad)
   * @param problem null when every record read; else what stopped the read
   * @param torn whether the problem is what a crash during a write leaves (only ever at the end: a
   *     record cut short, one failing its checksum at the very end, or zeros)
   * @param records good records read
   * @param points points in them
   */
  record Scan(int position, String problem, boolean torn, long records, long points) {}

  /**
   * Reads {@code bytes}, a file of {@code generation}, giving each good batch to {@code replay}.
   */
  static Scan read(byte[] bytes, long generation, MetricLog.Replay replay) throws IOException {
    int position = MetricLog.HEADER_BYTES;
    if (bytes.length < MetricLog.HEADER_BYTES
        || !Arrays.equals(
            bytes, 0, MetricLog.MAGIC.length, MetricLog.MAGIC, 0, MetricLog.MAGIC.length)) {
      return new Scan(0, "no metric log header", false, 0, 0);
    }
    ByteBuffer fileHeader =
        ByteBuffer.wrap(bytes, MetricLog.MAGIC.length, Integer.BYTES + Long.BYTES);
    int version = fileHeader.getInt();
    long written = fileHeader.getLong();
    if (version < 1 || version > MetricLog.VERSION || written != generation) {
      return new Scan(0, "version " + version + ", generation " + written, false, 0, 0);
    }
    long records = 0;
    long points = 0;
    List<SeriesKey> fileSeries = new ArrayList<>(); // version 2: the file's dictionary
    while (position < bytes.length) {
      if (bytes.length - position < MetricLog.RECORD_HEADER_BYTES) {
        return new Scan(position, "a record header cut short", true, records, points);
      }
      ByteBuffer header = ByteBuffer.wrap(bytes, position, MetricLog.RECORD_HEADER_BYTES);
      int length = header.getInt();
      int checksum = header.getInt();
      if (length <= 0 || length > MetricLog.MAX_RECORD_BYTES) {
        // zeros: space the file system allocated, never written
        return new Scan(
            position, "a record length of " + length, zeros(bytes, position), records, points);
      }
      int body = position + MetricLog.RECORD_HEADER_BYTES;
      if (bytes.length - body < length) {
        return new Scan(
            position, "a record of " + length + " bytes cut short", true, records, points);
      }
      CRC32C crc = new CRC32C();
      crc.update(bytes, body, length);
      if ((int) crc.getValue() != checksum) {
        return new Scan(
            position,
            "a record failing its checksum",
            body + length == bytes.length,
            records,
            points);
      }
      MetricBatch batch;
      try {
        batch =
            MetricLogCodec.decode(
                Arrays.copyOfRange(bytes, body, body + length), version, fileSeries);
      } catch (IOException | RuntimeException e) {
        return new Scan(
            position,
            "a record that passes its checksum but does not decode (" + e + ")",
            false,
            records,
            points);
      }
      replay.batch(generation, batch);
      records++;
      points += batch.size();
      position = body + length;
    }
    return new Scan(position, null, false, records, points);
  }

  /** Whether every byte from {@code from} on is zero. */
  private static boolean zeros(byte[] bytes, int from) {
    for (int i = from; i < bytes.length; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return true;
  }
}
