package io.quarry.benchmarks;

import com.github.luben.zstd.ZstdDecompressCtx;
import io.quarry.codecs.journal.JournalBlock;
import io.quarry.codecs.journal.JournalStoredFieldsReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.store.FSDirectory;

/**
 * The journal's block decode as the server does it against the best zstd-jni does on the same
 * stored bytes (session 34, lane scan): every journal block of a zstd bucket, decoded on this
 * thread round after round, best round's thread CPU per decoded byte. The ways:
 *
 * <ul>
 *   <li>{@code reader.decodeBlock}: the server's path (seek and copy of the compressed bytes out of
 *       the mapped file, {@code decompressByteArray} into a reused array, the check, the block's
 *       document offsets); round 0 checks each block's decoded bytes against its CRC32C, later
 *       rounds the compressed bytes' CRC32C only, as the server's later reads of a block do
 *       (session 42, {@code VerifiedBlocks});
 *   <li>{@code zstd, heap → heap}: the compressed bytes already in arrays, one context, one reused
 *       target (zstd alone: the floor for the format);
 *   <li>{@code + CRC32C}: the same and the checksum the journal checks;
 *   <li>{@code zstd, mapped → heap}: straight from the data file mapped by this tool ({@code
 *       decompressDirectByteBufferToByteArray}: no copy of the compressed bytes);
 *   <li>{@code copy out of the map}: the compressed bytes' copy alone.
 * </ul>
 *
 * <pre>
 * java -cp benchmarks.jar io.quarry.benchmarks.JournalDecodePath &lt;bucket dir&gt; [rounds]
 * </pre>
 */
public final class JournalDecodePath {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private JournalDecodePath() {}

  /** One segment's blocks: where each lies in the data file, and its lengths. */
  private record Segment(
      JournalStoredFieldsReader reader,
      MappedByteBuffer data,
      long[] starts,
      int[] compressed,
      int[] raw) {}

  public static void main(String[] args) throws Exception {
    Path bucket = Path.of(args[0]);
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    try (FSDirectory directory = FSDirectory.open(bucket);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      List<Segment> segments = new ArrayList<>();
      long rawBytes = 0;
      long storedBytes = 0;
      int largestRaw = 0;
      int blocks = 0;
      for (LeafReaderContext leaf : reader.leaves()) {
        JournalStoredFieldsReader journal =
            (JournalStoredFieldsReader) ((CodecReader) leaf.reader()).getFieldsReader();
        Path file = bucket.resolve(((SegmentReader) leaf.reader()).getSegmentName() + ".qjd");
        if (!Files.exists(file)) {
          continue; // a compound segment: its journal is not a file of its own to map
        }
        MappedByteBuffer data;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
          data = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
        }
        int count = journal.blockCount();
        long[] starts = new long[count];
        int[] compressed = new int[count];
        int[] raw = new int[count];
        for (int b = 0; b < count; b++) {
          starts[b] = journal.blockStart(b);
          compressed[b] = journal.compressedLength(b);
          raw[b] = journal.rawLength(b);
        }
        segments.add(new Segment(journal, data, starts, compressed, raw));
        for (int length : raw) {
          largestRaw = Math.max(largestRaw, length);
          rawBytes += length;
          blocks++;
        }
        storedBytes += journal.compressedBytes();
      }
      System.out.printf(
          "%s: %d segments, %,d blocks, %,d bytes decoded, %,d stored (codec %s)%n",
          bucket,
          segments.size(),
          blocks,
          rawBytes,
          storedBytes,
          segments.isEmpty() ? "-" : segments.get(0).reader().codec());
      List<byte[][]> heap = new ArrayList<>();
      for (Segment segment : segments) {
        byte[][] arrays = new byte[segment.starts().length][];
        for (int b = 0; b < arrays.length; b++) {
          arrays[b] = new byte[segment.compressed()[b]];
          segment.data().get((int) segment.starts()[b], arrays[b]);
        }
        heap.add(arrays);
      }
      ZstdDecompressCtx context = new ZstdDecompressCtx();
      byte[] target = new byte[largestRaw];
      CRC32C crc = new CRC32C();
      JournalBlock block = new JournalBlock();
      String[] names = {
        "reader.decodeBlock (server)",
        "zstd, heap -> heap",
        "zstd, heap -> heap + CRC32C",
        "zstd, mapped -> heap",
        "zstd, mapped -> heap + CRC32C",
        "copy out of the map alone",
        "CRC32C alone"
      };
      long[] best = new long[names.length];
      java.util.Arrays.fill(best, Long.MAX_VALUE);
      long sink = 0;
      for (int round = 0; round <= rounds; round++) { // round 0 warms up
        for (int way = 0; way < names.length; way++) {
          long started = THREADS.getCurrentThreadCpuTime();
          for (int s = 0; s < segments.size(); s++) {
            Segment segment = segments.get(s);
            byte[][] arrays = heap.get(s);
            for (int b = 0; b < arrays.length; b++) {
              int raw = segment.raw()[b];
              switch (way) {
                case 0 -> segment.reader().decodeBlock(b, block);
                case 1, 2 -> {
                  if (context.decompressByteArray(target, 0, raw, arrays[b], 0, arrays[b].length)
                      != raw) {
                    throw new IllegalStateException("block " + b);
                  }
                }
                case 3, 4 -> {
                  if (context.decompressDirectByteBufferToByteArray(
                          target,
                          0,
                          raw,
                          segment.data(),
                          (int) segment.starts()[b],
                          segment.compressed()[b])
                      != raw) {
                    throw new IllegalStateException("block " + b);
                  }
                }
                case 5 -> {
                  segment.data().get((int) segment.starts()[b], target, 0, arrays[b].length);
                }
                default -> {}
              }
              if (way == 2 || way == 4 || way == 6) {
                crc.reset();
                crc.update(target, 0, raw);
                sink += crc.getValue();
              }
            }
          }
          long took = THREADS.getCurrentThreadCpuTime() - started;
          if (round > 0) {
            best[way] = Math.min(best[way], took);
          }
        }
      }
      for (int way = 0; way < names.length; way++) {
        System.out.printf(
            "%-32s %8.1f ms  %8.0f MB/s (of decoded bytes)%n",
            names[way], best[way] / 1e6, rawBytes / 1e6 / (best[way] / 1e9));
      }
      if (sink == 42) {
        System.out.println();
      }
    }
  }
}
