package io.quarry.benchmarks;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictDecompress;
import com.github.luben.zstd.ZstdDictTrainer;
import io.quarry.codecs.journal.JournalBlock;
import io.quarry.codecs.journal.JournalStoredFieldsReader;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.store.FSDirectory;

/**
 * What a cheaper journal decode would cost in bytes, measured on a real index's blocks: every
 * journal block of an index directory is decoded once (as stored), then recompressed with each
 * candidate (zstd levels, zstd's fast levels whose literals are stored raw, zstd with a longer
 * minimum match, blocks twice and half as large, zstd with a dictionary trained on the blocks, lz4
 * and lz4hc at several levels), and each candidate's blocks are decoded again and again on this
 * thread. Prints, per candidate, the journal's bytes, the decode's thread CPU per block byte (MB/s
 * of one core) and the encode's. Thread CPU rather than wall time, so a loaded machine disturbs it
 * less (its caches are still shared: compare candidates of one run, not runs).
 *
 * <pre>
 * java -cp benchmarks.jar io.quarry.benchmarks.JournalCodecChoices &lt;bucket dir&gt; [decode rounds] [name prefix]
 * </pre>
 */
public final class JournalCodecChoices {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final int DICTIONARY_BYTES = 64 * 1024;

  private JournalCodecChoices() {}

  /** One way to write and read a block. */
  private interface Codec {
    int compress(byte[] source, int length, byte[] target);

    void decompress(byte[] source, int sourceLength, byte[] target, int targetLength);

    /** The same decode between direct buffers (positions 0, limits the lengths). */
    default void decompress(ByteBuffer source, ByteBuffer target) {
      throw new UnsupportedOperationException("no direct decode");
    }
  }

  /**
   * A way to write blocks: {@code blocks} 1 compresses each stored block, 2 each pair of neighbours
   * as one, -2 each half of a block on its own (a block size twice or half the stored one).
   */
  private record Candidate(
      String name, Function<List<byte[]>, Codec> codec, int blocks, boolean direct) {
    Candidate(String name, Supplier<Codec> codec) {
      this(name, codec, 1);
    }

    Candidate(String name, Supplier<Codec> codec, int blocks) {
      this(name, sample -> codec.get(), blocks);
    }

    Candidate(String name, Function<List<byte[]>, Codec> codec, int blocks) {
      this(name, codec, blocks, false);
    }

    /**
     * Decoded between direct buffers, not arrays ({@link Codec#decompress(ByteBuffer,
     * ByteBuffer)}).
     */
    static Candidate direct(String name, Supplier<Codec> codec) {
      return new Candidate(name, sample -> codec.get(), 1, true);
    }
  }

  public static void main(String[] args) throws Exception {
    Path bucket = Path.of(args[0]);
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    String only = args.length > 2 ? args[2] : ""; // the candidates whose name starts with it
    long[] storedBytes = new long[1];
    List<byte[]> stored = storedBlocks(bucket, storedBytes);
    long raw = 0;
    for (byte[] block : stored) {
      raw += block.length;
    }
    System.out.printf(
        "%s: %,d journal blocks, %,d bytes decoded, %,d bytes as stored (ratio %.4f)%n",
        bucket, stored.size(), raw, storedBytes[0], (double) storedBytes[0] / raw);
    System.out.printf(
        "CRC32C of the decoded blocks (checked on every decode): %.0f MB/s%n", crc(stored, rounds));
    System.out.printf(
        "%-26s %14s %8s %14s %14s%n",
        "candidate", "journal bytes", "ratio", "decode MB/s", "encode MB/s");
    for (Candidate candidate : candidates()) {
      if (!candidate.name().startsWith(only)) {
        continue;
      }
      List<byte[]> blocks = resized(stored, candidate.blocks());
      int largest = 0;
      for (byte[] block : blocks) {
        largest = Math.max(largest, block.length);
      }
      Codec codec = candidate.codec().apply(blocks);
      byte[][] compressed = new byte[blocks.size()][];
      byte[] target = new byte[(int) Zstd.compressBound(largest) + 64 * 1024];
      long encodeStarted = THREADS.getCurrentThreadCpuTime();
      long bytes = 0;
      for (int i = 0; i < blocks.size(); i++) {
        byte[] block = blocks.get(i);
        int length = codec.compress(block, block.length, target);
        compressed[i] = Arrays.copyOf(target, length);
        bytes += length;
      }
      long encodeNanos = THREADS.getCurrentThreadCpuTime() - encodeStarted;
      byte[] into = new byte[largest];
      for (int i = 0; i < blocks.size(); i++) { // warm-up, and every block must come back
        byte[] block = blocks.get(i);
        codec.decompress(compressed[i], compressed[i].length, into, block.length);
        if (!Arrays.equals(into, 0, block.length, block, 0, block.length)) {
          throw new IllegalStateException(candidate.name() + " changed block " + i);
        }
      }
      long best =
          candidate.direct()
              ? bestDirectDecode(candidate.name(), codec, compressed, blocks, rounds)
              : Long.MAX_VALUE;
      for (int round = 0; round < rounds && !candidate.direct(); round++) {
        long started = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < blocks.size(); i++) {
          codec.decompress(compressed[i], compressed[i].length, into, blocks.get(i).length);
        }
        best = Math.min(best, THREADS.getCurrentThreadCpuTime() - started);
      }
      System.out.printf(
          "%-26s %,14d %8.4f %14.0f %14.0f%n",
          candidate.name(),
          bytes,
          (double) bytes / raw,
          raw / 1e6 / (best / 1e9),
          raw / 1e6 / (encodeNanos / 1e9));
    }
  }

  /** The best round's speed of {@code CRC32C} over every block, in MB per second of thread CPU. */
  private static double crc(List<byte[]> blocks, int rounds) {
    long raw = 0;
    long best = Long.MAX_VALUE;
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    for (int round = 0; round <= rounds; round++) { // round 0 warms up
      long started = THREADS.getCurrentThreadCpuTime();
      for (byte[] block : blocks) {
        crc.reset();
        crc.update(block, 0, block.length);
        raw += round == 0 ? block.length : 0;
      }
      long took = THREADS.getCurrentThreadCpuTime() - started;
      best = round == 0 ? best : Math.min(best, took);
    }
    return raw / 1e6 / (best / 1e9);
  }

  /**
   * The best round's thread CPU decoding every block from a direct buffer into a direct buffer (as
   * a journal read straight from its mapped file into off-heap memory would), each block checked
   * once first.
   */
  private static long bestDirectDecode(
      String name, Codec codec, byte[][] compressed, List<byte[]> blocks, int rounds) {
    ByteBuffer[] sources = new ByteBuffer[compressed.length];
    int largest = 0;
    for (int i = 0; i < compressed.length; i++) {
      sources[i] = ByteBuffer.allocateDirect(compressed[i].length).put(compressed[i]).flip();
      largest = Math.max(largest, blocks.get(i).length);
    }
    ByteBuffer target = ByteBuffer.allocateDirect(largest);
    byte[] check = new byte[largest];
    for (int i = 0; i < sources.length; i++) {
      byte[] block = blocks.get(i);
      codec.decompress(sources[i].rewind(), target.clear().limit(block.length));
      target.get(0, check, 0, block.length);
      if (!Arrays.equals(check, 0, block.length, block, 0, block.length)) {
        throw new IllegalStateException(name + " changed block " + i);
      }
    }
    long best = Long.MAX_VALUE;
    for (int round = 0; round < rounds; round++) {
      long started = THREADS.getCurrentThreadCpuTime();
      for (int i = 0; i < sources.length; i++) {
        codec.decompress(sources[i].rewind(), target.clear().limit(blocks.get(i).length));
      }
      best = Math.min(best, THREADS.getCurrentThreadCpuTime() - started);
    }
    return best;
  }

  /** The stored blocks as they are ({@code 1}), pairs of neighbours joined (2) or halves (-2). */
  private static List<byte[]> resized(List<byte[]> stored, int factor) {
    List<byte[]> blocks = new ArrayList<>();
    for (int i = 0; i < stored.size(); i++) {
      byte[] block = stored.get(i);
      if (factor == 2 && i + 1 < stored.size()) {
        byte[] next = stored.get(++i);
        byte[] joined = Arrays.copyOf(block, block.length + next.length);
        System.arraycopy(next, 0, joined, block.length, next.length);
        blocks.add(joined);
      } else if (factor == -2) {
        blocks.add(Arrays.copyOfRange(block, 0, block.length / 2));
        blocks.add(Arrays.copyOfRange(block, block.length / 2, block.length));
      } else {
        blocks.add(block);
      }
    }
    return blocks;
  }

  private static List<Candidate> candidates() {
    List<Candidate> candidates = new ArrayList<>();
    for (int level : new int[] {-5, -1, 1, 3, 4, 5, 6, 7, 8, 9, 12, 15}) {
      candidates.add(
          new Candidate("zstd " + level, () -> zstd(new ZstdCompressCtx().setLevel(level))));
    }
    for (int level : new int[] {3, 6, 9}) {
      candidates.add(
          new Candidate(
              "zstd " + level + " minMatch 7",
              () -> zstd(new ZstdCompressCtx().setLevel(level).setMinMatch(7))));
    }
    for (int level : new int[] {3, 6, 9}) {
      candidates.add(
          new Candidate(
              "zstd " + level + " blocks x2",
              () -> zstd(new ZstdCompressCtx().setLevel(level)),
              2));
      candidates.add(
          new Candidate(
              "zstd " + level + " blocks /2",
              () -> zstd(new ZstdCompressCtx().setLevel(level)),
              -2));
    }
    for (int level : new int[] {1, 9}) {
      for (int blocks : new int[] {1, -2}) {
        candidates.add(
            new Candidate(
                "zstd " + level + " dict" + (blocks == 1 ? "" : " blocks /2"),
                sample -> zstdDictionary(level, sample),
                blocks));
      }
    }
    for (int level : new int[] {1, 3, 9}) {
      candidates.add(
          Candidate.direct(
              "zstd " + level + " direct", () -> zstd(new ZstdCompressCtx().setLevel(level))));
    }
    LZ4Factory lz4 = LZ4Factory.fastestInstance();
    candidates.add(new Candidate("lz4", () -> lz4(lz4.fastCompressor(), lz4.safeDecompressor())));
    candidates.add(
        Candidate.direct("lz4hc direct", () -> lz4(lz4.highCompressor(), lz4.safeDecompressor())));
    candidates.add(new Candidate("lz4hc", () -> lz4(lz4.highCompressor(), lz4.safeDecompressor())));
    for (int level : new int[] {4, 12, 17}) {
      candidates.add(
          new Candidate(
              "lz4hc " + level, () -> lz4(lz4.highCompressor(level), lz4.safeDecompressor())));
    }
    for (int level : new int[] {9, 12}) {
      candidates.add(
          new Candidate(
              "lz4hc " + level + " blocks x2",
              () -> lz4(lz4.highCompressor(level), lz4.safeDecompressor()),
              2));
    }
    return candidates;
  }

  private static Codec zstd(ZstdCompressCtx compressor) {
    return zstd(compressor, new ZstdDecompressCtx());
  }

  private static Codec zstd(ZstdCompressCtx compressor, ZstdDecompressCtx decompressor) {
    return new Codec() {
      @Override
      public int compress(byte[] source, int length, byte[] target) {
        return compressor.compressByteArray(target, 0, target.length, source, 0, length);
      }

      @Override
      public void decompress(byte[] source, int sourceLength, byte[] target, int targetLength) {
        decompressor.decompressByteArray(target, 0, targetLength, source, 0, sourceLength);
      }

      @Override
      public void decompress(ByteBuffer source, ByteBuffer target) {
        decompressor.decompressDirectByteBuffer(
            target, 0, target.limit(), source, 0, source.limit());
      }
    };
  }

  /**
   * zstd at {@code level} with a dictionary of {@value #DICTIONARY_BYTES} bytes trained on 4 KiB
   * pieces of every 8th block (as a per-segment dictionary in the journal's header would be).
   */
  private static Codec zstdDictionary(int level, List<byte[]> blocks) {
    ZstdDictTrainer trainer = new ZstdDictTrainer(16 << 20, DICTIONARY_BYTES);
    for (int i = 0; i < blocks.size(); i += 8) {
      byte[] block = blocks.get(i);
      for (int at = 0; at + 4096 <= block.length; at += 4096) {
        trainer.addSample(Arrays.copyOfRange(block, at, at + 4096));
      }
    }
    byte[] dictionary = trainer.trainSamples();
    ZstdCompressCtx compressor = new ZstdCompressCtx().setLevel(level);
    compressor.loadDict(new ZstdDictCompress(dictionary, level));
    ZstdDecompressCtx decompressor = new ZstdDecompressCtx();
    decompressor.loadDict(new ZstdDictDecompress(dictionary));
    return zstd(compressor, decompressor);
  }

  private static Codec lz4(LZ4Compressor compressor, LZ4SafeDecompressor decompressor) {
    return new Codec() {
      @Override
      public int compress(byte[] source, int length, byte[] target) {
        return compressor.compress(source, 0, length, target, 0, target.length);
      }

      @Override
      public void decompress(byte[] source, int sourceLength, byte[] target, int targetLength) {
        decompressor.decompress(source, 0, sourceLength, target, 0, targetLength);
      }

      @Override
      public void decompress(ByteBuffer source, ByteBuffer target) {
        decompressor.decompress(source, 0, source.limit(), target, 0, target.limit());
      }
    };
  }

  /**
   * Every journal block of the bucket's segments, decoded as stored. The decoded bytes and their
   * lengths (the block index's) are private to the journal's package: read by reflection (a
   * measuring tool only).
   */
  static List<byte[]> storedBlocks(Path bucket, long[] storedBytes)
      throws IOException, ReflectiveOperationException {
    return storedBlocks(bucket, storedBytes, new ArrayList<>());
  }

  /**
   * Every journal block of a bucket, decoded as stored; {@code documents} gets each block's number
   * of documents, and {@code storedBytes[0]} the compressed bytes.
   */
  static List<byte[]> storedBlocks(Path bucket, long[] storedBytes, List<Integer> documents)
      throws IOException, ReflectiveOperationException {
    Field bytes = JournalBlock.class.getDeclaredField("bytes");
    bytes.setAccessible(true);
    Field index = JournalStoredFieldsReader.class.getDeclaredField("blocks");
    index.setAccessible(true);
    Field rawLengths = index.getType().getDeclaredField("rawLengths"); // JournalBlockIndex's
    rawLengths.setAccessible(true);
    List<byte[]> blocks = new ArrayList<>();
    try (FSDirectory directory = FSDirectory.open(bucket);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      for (LeafReaderContext leaf : reader.leaves()) {
        JournalStoredFieldsReader journal =
            (JournalStoredFieldsReader) ((CodecReader) leaf.reader()).getFieldsReader();
        int[] lengths = (int[]) rawLengths.get(index.get(journal));
        storedBytes[0] += journal.compressedBytes();
        JournalBlock block = new JournalBlock();
        for (int b = 0; b < journal.blockCount(); b++) {
          journal.decodeBlock(b, block);
          blocks.add(Arrays.copyOf((byte[]) bytes.get(block), lengths[b]));
          documents.add(block.docCount());
        }
      }
    }
    return blocks;
  }
}
