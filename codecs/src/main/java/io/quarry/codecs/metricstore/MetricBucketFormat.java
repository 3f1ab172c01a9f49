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
 *               Points (vlong), WalGeneration (vlong), FirstRoll (vlong), LastRoll (vlong),
 *               SeriesCount (vint), Series^SeriesCount, TermCount (vint), Posting^TermCount,
 *               Footer                                      -- version 1: no FirstRoll, LastRoll
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
 * <p>{@code FirstRoll..LastRoll}: the rolls whose points the bucket holds, by the id each rolled
 * bucket was given (a rolled bucket: its own id twice; a merged one: its sources' span; version 1
 * files, which have no such fields, are read as their id twice). Rolls are numbered in the order
 * they happened, so the ranges order buckets by age of writing — a later roll's point wins over an
 * earlier one's at the same series and instant — and a bucket whose range lies inside another's is
 * a merge's source left behind by a crash, deleted on open ({@link BucketMerger}).
 *
 * <p><b>Writing.</b> Both files go into {@code <id>.tmp/}, are forced, and the directory is renamed
 * to {@code <id>} and its parent forced: a bucket is there whole or not at all; a {@code .tmp}
 * directory found on open is a crash's leftover and is deleted (the log still holds its points).
 *
 * <p><b>Integrity.</b> Readers check magic and version range, then the footer's CRC over the whole
 * file before parsing (the series file when the bucket opens, the chunk file when a query first
 * maps it); each chunk also carries its own CRC32C, checked whenever it is decoded or copied.
 *
 * <p><b>Reading.</b> The series file is read into the heap when the bucket opens; the chunk file is
 * memory-mapped when a query first needs it (checked whole then), and each chunk is copied out of
 * the mapping as it is decoded — the page cache holds the data, not the heap. A chunk file is at
 * most 2 GiB (int offsets).
 */
public final class MetricBucketFormat {
  static final String SERIES_FILE = "series.qms";
  static final String CHUNKS_FILE = "chunks.qmc";
  static final byte[] SERIES_MAGIC = "QMSERIES".getBytes(StandardCharsets.US_ASCII);
  static final byte[] CHUNKS_MAGIC = "QMCHUNKS".getBytes(StandardCharsets.US_ASCII);
  static final int VERSION_START = 1;

  /** The series file's version 2 added FirstRoll and LastRoll. */
  static final int VERSION_ROLLS = 2;

  static final int SERIES_VERSION_CURRENT = VERSION_ROLLS;
  static final int CHUNKS_VERSION_CURRENT = VERSION_START;
  static final int HEADER_BYTES = 8 + Integer.BYTES;

  private MetricBucketFormat() {}

  /** One series of a bucket being written: its key and its chunks, in time order, disjoint. */
  record SeriesChunks(SeriesKey key, List<Chunk> chunks) {}

  /** What a bucket being written holds. */
  record Contents(
      long minTime,
      long maxTime,
      long points,
      long walGeneration,
      long firstRoll,
      long lastRoll,
      List<SeriesChunks> series) {}

  /** The contents of a hot bucket rolled as roll {@code id}; the caller holds the bucket's lock. */
  static Contents of(HotBucket hot, long id, long walGeneration) {
    List<SeriesChunks> series = new ArrayList<>(hot.series().size());
    for (HotSeries s : hot.series()) {
      series.add(new SeriesChunks(s.key, s.chunks(true)));
    }
    return new Contents(hot.minTime(), hot.maxTime(), hot.points(), walGeneration, id, id, series);
  }

  /**
   * Writes {@code contents} as bucket {@code id} under {@code buckets}: into {@code <id>.tmp/},
   * forced; the caller publishes it with {@link #publish}.
   *
   * @return the temporary directory
   */
  static Path writeTemporary(Path buckets, long id, Contents contents) throws IOException {
    Path tmp = buckets.resolve(id + ".tmp");
    if (Files.exists(tmp)) {
      IOUtils.rm(tmp);
    }
    Files.createDirectories(tmp);
    ByteBuffersDataOutput series = new ByteBuffersDataOutput();
    ByteBuffersDataOutput chunks = new ByteBuffersDataOutput();
    header(series, SERIES_MAGIC, SERIES_VERSION_CURRENT);
    header(chunks, CHUNKS_MAGIC, CHUNKS_VERSION_CURRENT);
    series.writeVLong(id);
    series.writeZLong(contents.minTime());
    series.writeZLong(contents.maxTime());
    series.writeVLong(contents.points());
    series.writeVLong(contents.walGeneration());
    series.writeVLong(contents.firstRoll());
    series.writeVLong(contents.lastRoll());
    series.writeVInt(contents.series().size());
    Map<String, HotBucket.IntList> postings = new TreeMap<>();
    int seriesId = 0;
    for (SeriesChunks s : contents.series()) {
      SeriesKey key = s.key();
      MetricLogCodec.writeSeries(series, key);
      series.writeVInt(s.chunks().size());
      for (Chunk chunk : s.chunks()) {
        series.writeVLong(0); // chunks are back to back
        series.writeVInt(chunk.bytes().length);
        series.writeVInt(chunk.count());
        series.writeZLong(chunk.minTime());
        series.writeVLong(chunk.maxTime() - chunk.minTime());
        chunks.writeBytes(chunk.bytes(), chunk.bytes().length);
      }
      int current = seriesId++;
      postings
          .computeIfAbsent(
              Postings.term(Postings.METRIC_NAME, key.metricName()), t -> new HotBucket.IntList())
          .add(current);
      for (int d = 0; d < key.size(); d++) {
        postings
            .computeIfAbsent(Postings.term(key.name(d), key.value(d)), t -> new HotBucket.IntList())
            .add(current);
      }
    }
    series.writeVInt(postings.size());
    for (Map.Entry<String, HotBucket.IntList> posting : postings.entrySet()) {
      series.writeString(posting.getKey());
      int[] ids = posting.getValue().toArray();
      series.writeVInt(ids.length);
      int previous = 0;
      for (int id1 : ids) {
        series.writeVInt(id1 - previous);
        previous = id1;
      }
    }
    writeWithFooter(tmp.resolve(SERIES_FILE), series);
    writeWithFooter(tmp.resolve(CHUNKS_FILE), chunks);
    IOUtils.fsync(tmp, true);
    return tmp;
  }

  /** Renames a directory from {@link #writeTemporary} to its bucket's name, durably. */
  static Path publish(Path tmp) throws IOException {
    String name = tmp.getFileName().toString();
    Path target = tmp.resolveSibling(name.substring(0, name.length() - ".tmp".length()));
    Files.move(tmp, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    IOUtils.fsync(tmp.getParent(), true);
    return target;
  }

  /** Writes and publishes bucket {@code id}: there whole, or not at all. */
  static Path write(Path buckets, long id, Contents contents) throws IOException {
    return publish(writeTemporary(buckets, id, contents));
  }

  private static void header(ByteBuffersDataOutput out, byte[] magic, int current) {
    out.writeBytes(magic, magic.length);
    byte[] version = ByteBuffer.allocate(Integer.BYTES).putInt(current).array();
    out.writeBytes(version, version.length); // big-endian, as the reader checks it
  }

  private static void writeWithFooter(Path file, ByteBuffersDataOutput body) throws IOException {
    CRC32C crc = new CRC32C();
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      for (ByteBuffer buffer : body.toBufferList()) { // no copy of the whole body
        crc.update(buffer.duplicate());
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
      }
      ByteBuffer footer = ByteBuffer.allocate(Integer.BYTES).putInt((int) crc.getValue()).flip();
      while (footer.hasRemaining()) {
        channel.write(footer);
      }
      channel.force(true);
    }
  }

  /** A checked file's version and body: the bytes between header and footer. */
  record Body(int version, byte[] bytes) {}

  /**
   * Reads a file written by {@link #writeWithFooter}, checking magic, version (up to {@code
   * current}) and CRC.
   */
  static Body readChecked(Path file, byte[] magic, int current) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    int version = check(ByteBuffer.wrap(bytes), file.toString(), magic, current);
    return new Body(
        version, java.util.Arrays.copyOfRange(bytes, HEADER_BYTES, bytes.length - Integer.BYTES));
  }

  /**
   * Checks a whole file in {@code bytes} (position 0 to limit): size, magic, version up to {@code
   * current}, the footer's CRC32C over every byte before it.
   *
   * @return the version
   */
  private static int check(ByteBuffer bytes, String resource, byte[] magic, int current)
      throws IOException {
    int length = bytes.limit();
    if (length < HEADER_BYTES + Integer.BYTES) {
      throw new CorruptIndexException("file of " + length + " bytes", resource);
    }
    byte[] found = new byte[magic.length];
    bytes.get(0, found);
    if (!java.util.Arrays.equals(found, magic)) {
      throw new CorruptIndexException(
          "not a " + new String(magic, StandardCharsets.US_ASCII) + " file", resource);
    }
    int version = bytes.getInt(magic.length); // big-endian, as written
    if (version < VERSION_START) {
      throw new IndexFormatTooOldException(resource, version, VERSION_START, current);
    }
    if (version > current) {
      throw new IndexFormatTooNewException(resource, version, VERSION_START, current);
    }
    int bodyEnd = length - Integer.BYTES;
    CRC32C crc = new CRC32C();
    crc.update(bytes.duplicate().position(0).limit(bodyEnd));
    int expected = bytes.getInt(bodyEnd);
    if ((int) crc.getValue() != expected) {
      throw new CorruptIndexException(
          "checksum failed (footer "
              + Integer.toHexString(expected)
              + ", computed "
              + Integer.toHexString((int) crc.getValue())
              + ")",
          resource);
    }
    return version;
  }

  /**
   * The chunk file of {@code bucket} mapped into memory (not read into the heap), checked whole
   * once here, as the bytes after its header: chunk offsets count from index 0 of the result. The
   * mapping stays valid after the bucket's directory is moved or deleted, until the buffer is
   * collected.
   */
  static ByteBuffer mapChunks(Path bucket) throws IOException {
    Path file = bucket.resolve(CHUNKS_FILE);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      if (size > Integer.MAX_VALUE) {
        throw new CorruptIndexException(
            "chunk file of " + size + " bytes (at most 2 GiB: offsets are ints)", file.toString());
      }
      ByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
      check(mapped, file.toString(), CHUNKS_MAGIC, CHUNKS_VERSION_CURRENT);
      return mapped
          .slice(HEADER_BYTES, (int) size - HEADER_BYTES - Integer.BYTES)
          .asReadOnlyBuffer();
    }
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

  /**
   * Refuses a directory holding an event index's buckets ({@code buckets/} not empty) as a metric
   * index's.
   *
   * @throws IOException naming the index and the directory
   */
  static void requireNoEventBuckets(String index, Path directory) throws IOException {
    Path eventBuckets = directory.resolve("buckets");
    if (Files.isDirectory(eventBuckets)) {
      try (var entries = Files.list(eventBuckets)) {
        if (entries.findAny().isPresent()) {
          throw new IOException(
              "index '"
                  + index
                  + "' is declared datatype: metric but "
                  + directory
                  + " holds event buckets; an event index cannot become a metric index");
        }
      }
    }
  }

  /**
   * Bytes on disk under the directories (a bucket's; an index's buckets and log) by kind of file:
   * {@code series files} ({@value #SERIES_FILE}), {@code chunk files} ({@value #CHUNKS_FILE}),
   * {@code log} (the metric log's files), {@code other}.
   */
  static Map<String, Long> bytesByKind(Path... directories) throws IOException {
    Map<String, Long> kinds = new java.util.LinkedHashMap<>();
    kinds.put("series files", 0L);
    kinds.put("chunk files", 0L);
    kinds.put("log", 0L);
    for (Path directory : directories) {
      if (Files.isDirectory(directory)) {
        addBytesByKind(directory, kinds);
      }
    }
    return kinds;
  }

  private static void addBytesByKind(Path directory, Map<String, Long> kinds) throws IOException {
    try (var files = Files.walk(directory)) {
      for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        String name = file.getFileName().toString();
        String kind =
            name.equals(SERIES_FILE)
                ? "series files"
                : name.equals(CHUNKS_FILE)
                    ? "chunk files"
                    : name.startsWith("mwal-") ? "log" : "other";
        long size;
        try {
          size = Files.size(file);
        } catch (java.nio.file.NoSuchFileException gone) {
          continue; // a roll or merge deleted it meanwhile
        }
        kinds.merge(kind, size, Long::sum);
      }
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
