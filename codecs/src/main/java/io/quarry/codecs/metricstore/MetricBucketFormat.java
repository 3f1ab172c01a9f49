package io.quarry.codecs.metricstore;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.util.IOUtils;

/**
 * The files of a warm metric bucket, a directory {@code metric-buckets/<id>/} holding two files.
 *
 * <p><b>Principle.</b> A series file small enough to read whole when the bucket is opened — the
 * series dictionary, its posting lists and, per series, where each of its chunks lies and which
 * time it spans — so a query picks series by postings and chunks by time without touching the chunk
 * file; and a chunk file of the chunk codec's chunks ({@code io.quarry.codecs.metric}), each
 * series' chunks together and in time order (Splunk's metric store v2 and Prometheus' TSDB blocks
 * colocate a series' points the same way).
 *
 * <p><b>Grammar</b> (Lucene's data types: vint/vlong varints, zlong zig-zag, string = vint length +
 * UTF-8; the header's Version and the footer's Crc are big-endian ints):
 *
 * <pre>
 * series.qms := Header("QMSERIES"), BucketId (vlong), MinTime (zlong), MaxTime (zlong),
 *               Points (vlong), WalGeneration (vlong), SeriesCount (vint), Series^SeriesCount,
 *               TermCount (vint), Posting^TermCount, Footer
 * Series     := MetricName (string), DimCount (vint), &lt;Name (string), Value (string)&gt;^DimCount,
 *               ChunkCount (vint), ChunkRef^ChunkCount      -- names sorted and distinct
 * ChunkRef   := OffsetDelta (vlong: from the previous chunk's end in chunks.qmc), Length (vint),
 *               Count (vint), MinTime (zlong), TimeSpan (vlong: MaxTime - MinTime)
 * Posting    := Term (string: name=value, value lower-cased), IdCount (vint),
 *               IdDelta (vint)^IdCount                      -- series ids ascending, first from 0
 * chunks.qmc := Header("QMCHUNKS"), Chunk*, Footer           -- Chunk: MetricChunkFormat's bytes
 * Header     := Magic (8 ASCII bytes), Version (int)
 * Footer     := Crc (int: CRC32C of every byte before it)
 * </pre>
 *
 * A series' id is its position in the series file. {@code WalGeneration}: every metric log file up
 * to this generation is in this bucket or an older one, so recovery deletes those files instead of
 * replaying them (a crash between publishing the bucket and deleting the log duplicates nothing).
 * Chunk offsets count from the first byte after the chunk file's header.
 *
 * <p><b>Writing.</b> Both files go into {@code <id>.tmp/}, are forced, and the directory is renamed
 * to {@code <id>} and its parent forced: a bucket is there whole or not at all; a {@code .tmp}
 * directory found on open is a crash's leftover and is deleted (the log still holds its points).
 *
 * <p><b>Integrity.</b> Readers check magic and version range, then the footer's CRC over the whole
 * file before parsing (the series file when the bucket opens, the chunk file when a query first
 * reads it); each chunk also carries its own CRC32C.
 *
 * <p><b>Limitations.</b> The chunk file is read into the heap whole on first use (mapping it is the
 * next step for buckets of hundreds of MB). No merges of warm buckets yet: a bucket is whatever one
 * hot bucket held.
 */
public final class MetricBucketFormat {
  static final String SERIES_FILE = "series.qms";
  static final String CHUNKS_FILE = "chunks.qmc";
  static final byte[] SERIES_MAGIC = "QMSERIES".getBytes(StandardCharsets.US_ASCII);
  static final byte[] CHUNKS_MAGIC = "QMCHUNKS".getBytes(StandardCharsets.US_ASCII);
  static final int VERSION_START = 1;
  static final int VERSION_CURRENT = VERSION_START;
  static final int HEADER_BYTES = 8 + Integer.BYTES;

  private MetricBucketFormat() {}

  /** Writes {@code hot} as bucket {@code id} under {@code buckets} and returns its directory. */
  static Path write(Path buckets, long id, HotBucket hot, long walGeneration) throws IOException {
    Path tmp = buckets.resolve(id + ".tmp");
    Path target = buckets.resolve(Long.toString(id));
    if (Files.exists(tmp)) {
      IOUtils.rm(tmp);
    }
    Files.createDirectories(tmp);
    ByteBuffersDataOutput series = new ByteBuffersDataOutput();
    ByteBuffersDataOutput chunks = new ByteBuffersDataOutput();
    header(series, SERIES_MAGIC);
    header(chunks, CHUNKS_MAGIC);
    series.writeVLong(id);
    series.writeZLong(hot.minTime());
    series.writeZLong(hot.maxTime());
    series.writeVLong(hot.points());
    series.writeVLong(walGeneration);
    series.writeVInt(hot.series().size());
    for (HotSeries s : hot.series()) {
      MetricLogCodec.writeSeries(series, s.key);
      List<Chunk> list = s.chunks(true);
      series.writeVInt(list.size());
      for (Chunk chunk : list) {
        series.writeVLong(0); // chunks are back to back
        series.writeVInt(chunk.bytes().length);
        series.writeVInt(chunk.count());
        series.writeZLong(chunk.minTime());
        series.writeVLong(chunk.maxTime() - chunk.minTime());
        chunks.writeBytes(chunk.bytes(), chunk.bytes().length);
      }
    }
    Map<String, int[]> postings = new TreeMap<>(hot.postings());
    series.writeVInt(postings.size());
    for (Map.Entry<String, int[]> posting : postings.entrySet()) {
      series.writeString(posting.getKey());
      int[] ids = posting.getValue();
      series.writeVInt(ids.length);
      int previous = 0;
      for (int id1 : ids) {
        series.writeVInt(id1 - previous);
        previous = id1;
      }
    }
    writeWithFooter(tmp.resolve(SERIES_FILE), series.toArrayCopy());
    writeWithFooter(tmp.resolve(CHUNKS_FILE), chunks.toArrayCopy());
    IOUtils.fsync(tmp, true);
    Files.move(tmp, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    IOUtils.fsync(buckets, true);
    return target;
  }

  private static void header(ByteBuffersDataOutput out, byte[] magic) {
    out.writeBytes(magic, magic.length);
    byte[] version = ByteBuffer.allocate(Integer.BYTES).putInt(VERSION_CURRENT).array();
    out.writeBytes(version, version.length); // big-endian, as the reader checks it
  }

  private static void writeWithFooter(Path file, byte[] body) throws IOException {
    CRC32C crc = new CRC32C();
    crc.update(body);
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer buffer = ByteBuffer.allocate(body.length + Integer.BYTES);
      buffer.put(body).putInt((int) crc.getValue()).flip();
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      channel.force(true);
    }
  }

  /**
   * Reads a file written by {@link #writeWithFooter}, checking magic, version and CRC; returns its
   * body: the bytes between header and footer.
   */
  static byte[] readChecked(Path file, byte[] magic) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    String resource = file.toString();
    if (bytes.length < HEADER_BYTES + Integer.BYTES) {
      throw new CorruptIndexException("file of " + bytes.length + " bytes", resource);
    }
    if (!java.util.Arrays.equals(bytes, 0, magic.length, magic, 0, magic.length)) {
      throw new CorruptIndexException(
          "not a " + new String(magic, StandardCharsets.US_ASCII) + " file", resource);
    }
    int version = ByteBuffer.wrap(bytes, magic.length, Integer.BYTES).getInt();
    if (version < VERSION_START) {
      throw new IndexFormatTooOldException(resource, version, VERSION_START, VERSION_CURRENT);
    }
    if (version > VERSION_CURRENT) {
      throw new IndexFormatTooNewException(resource, version, VERSION_START, VERSION_CURRENT);
    }
    int bodyEnd = bytes.length - Integer.BYTES;
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bodyEnd);
    int expected = ByteBuffer.wrap(bytes, bodyEnd, Integer.BYTES).getInt();
    if ((int) crc.getValue() != expected) {
      throw new CorruptIndexException(
          "checksum failed (footer "
              + Integer.toHexString(expected)
              + ", computed "
              + Integer.toHexString((int) crc.getValue())
              + ")",
          resource);
    }
    return java.util.Arrays.copyOfRange(bytes, HEADER_BYTES, bodyEnd);
  }

  /** The chunk file's bytes after its header, checked; chunk offsets count from index 0 here. */
  static byte[] readChunks(Path bucket) throws IOException {
    return readChecked(bucket.resolve(CHUNKS_FILE), CHUNKS_MAGIC);
  }

  /** Lists the bucket directories under {@code buckets}, deleting leftovers of a crash. */
  static List<Path> list(Path buckets) throws IOException {
    List<Path> found = new ArrayList<>();
    if (!Files.isDirectory(buckets)) {
      return found;
    }
    try (var stream = Files.newDirectoryStream(buckets)) {
      for (Path dir : stream) {
        String name = dir.getFileName().toString();
        if (name.endsWith(".tmp")) {
          IOUtils.rm(dir);
        } else if (name.matches("[0-9]+")) {
          found.add(dir);
        }
      }
    }
    found.sort(java.util.Comparator.comparingLong(p -> Long.parseLong(p.getFileName().toString())));
    return found;
  }
}
