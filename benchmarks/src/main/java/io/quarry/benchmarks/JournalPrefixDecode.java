package io.quarry.benchmarks;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import io.quarry.codecs.block.EventBlockTimes;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.store.ByteArrayDataInput;

/**
 * What reading only a journal block's first bytes costs against decoding it whole (session 33, lane
 * prefix): every journal block of a block bucket is decoded once as stored, recompressed with zstd
 * at the journal's two levels (1 for blocks written at a flush, 9 for compact merges), then decoded
 * again and again on this thread, whole ({@code decompressByteArray}, as the journal does) and by
 * zstd's streaming decoder stopped once the event block's {@code Times} section is out (the block
 * document's field header, the event block's header and section table, the times). Prints thread
 * CPU per block for both and the prefix's length. Thread CPU, so a loaded machine disturbs it less;
 * compare the lines of one run.
 *
 * <pre>
 * java [-Dupto=&lt;bytes&gt;] -cp benchmarks.jar io.quarry.benchmarks.JournalPrefixDecode &lt;bucket dir&gt; [rounds]
 * </pre>
 *
 * <p>Two more lines write each block with a zstd block ended where its times end (a streaming
 * compress flushed there), as a journal writer told the prefix's length could; {@code -Dupto} has
 * every prefix read stop after that many bytes instead of at the times' end; {@code -Dpiece} sets
 * the input's pieces (2 KiB, as the journal reads; 0 for all at once).
 */
public final class JournalPrefixDecode {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  // The compressed input fed in pieces of this many bytes, as the journal's prefix reads do (2 KiB;
  // 8 KiB held level 1's next, small zstd blocks whole); -Dpiece=0: all at once (then zstd decodes
  // a whole block past a flushed prefix's exact end).
  private static final int PIECE =
      Integer.getInteger("piece", 2 << 10) > 0
          ? Integer.getInteger("piece", 2 << 10)
          : Integer.MAX_VALUE;

  private JournalPrefixDecode() {}

  public static void main(String[] args) throws Exception {
    Path bucket = Path.of(args[0]);
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    List<Integer> documents = new ArrayList<>();
    List<byte[]> blocks = JournalCodecChoices.storedBlocks(bucket, new long[1], documents);
    long raw = 0;
    long prefixes = 0;
    int[] prefix = new int[blocks.size()];
    for (int i = 0; i < blocks.size(); i++) {
      raw += blocks.get(i).length;
      prefix[i] = timesEnd(blocks.get(i), documents.get(i));
      prefixes += prefix[i];
    }
    System.out.printf(
        "%s: %,d journal blocks, %,d bytes, times end at %,d bytes (%.1f%%) on average%n",
        bucket,
        blocks.size(),
        raw / blocks.size(),
        prefixes / blocks.size(),
        100.0 * prefixes / raw);
    System.out.printf(
        "%-8s %12s %14s %14s %14s%n", "level", "bytes", "whole us/blk", "prefix us/blk", "ratio");
    for (int variant = 0; variant < 4; variant++) {
      int level = variant % 2 == 0 ? 1 : 9;
      boolean flushed = variant >= 2; // a zstd block ends where the times end
      byte[][] compressed = new byte[blocks.size()][];
      long bytes = 0;
      try (ZstdCompressCtx compress = new ZstdCompressCtx().setLevel(level)) {
        for (int i = 0; i < compressed.length; i++) {
          byte[] block = blocks.get(i);
          byte[] target = new byte[(int) Zstd.compressBound(block.length) + 1024];
          if (flushed) {
            compress.reset();
            compress.setLevel(level);
            compress.setPledgedSrcSize(block.length);
            ByteBuffer out = ByteBuffer.wrap(target);
            ByteBuffer in = ByteBuffer.wrap(block, 0, prefix[i]);
            while (!compress.compressByteBufferStream(out, in, EndDirective.FLUSH)) {}
            in = ByteBuffer.wrap(block, prefix[i], block.length - prefix[i]);
            while (!compress.compressByteBufferStream(out, in, EndDirective.END)) {}
            compressed[i] = Arrays.copyOf(target, out.position());
          } else {
            compressed[i] = Arrays.copyOf(target, compress.compress(target, block));
          }
          bytes += compressed[i].length;
        }
      }
      long whole = Long.MAX_VALUE;
      long partial = Long.MAX_VALUE;
      try (ZstdDecompressCtx decompress = new ZstdDecompressCtx()) {
        byte[] into = new byte[blocks.stream().mapToInt(b -> b.length).max().orElse(0)];
        for (int round = 0; round <= rounds; round++) { // round 0 warms up and checks
          long started = THREADS.getCurrentThreadCpuTime();
          for (int i = 0; i < compressed.length; i++) {
            decompress.decompressByteArray(
                into, 0, blocks.get(i).length, compressed[i], 0, compressed[i].length);
          }
          long took = THREADS.getCurrentThreadCpuTime() - started;
          started = THREADS.getCurrentThreadCpuTime();
          for (int i = 0; i < compressed.length; i++) {
            decompress.reset();
            ByteBuffer target = ByteBuffer.wrap(into, 0, Integer.getInteger("upto", prefix[i]));
            ByteBuffer source =
                ByteBuffer.wrap(compressed[i], 0, Math.min(PIECE, compressed[i].length));
            while (target.hasRemaining()) {
              if (!source.hasRemaining()) {
                source.limit(Math.min(compressed[i].length, source.limit() + PIECE));
              }
              decompress.decompressByteBufferStream(target, source);
            }
            if (round == 0
                && !Arrays.equals(into, 0, target.limit(), blocks.get(i), 0, target.limit())) {
              throw new IllegalStateException("prefix of block " + i + " differs");
            }
          }
          long tookPrefix = THREADS.getCurrentThreadCpuTime() - started;
          if (round > 0) {
            whole = Math.min(whole, took);
            partial = Math.min(partial, tookPrefix);
          }
        }
      }
      System.out.printf(
          "%-8s %,12d %14.1f %14.1f %14.3f%n",
          level + (flushed ? "+flush" : ""),
          bytes,
          whole / 1e3 / blocks.size(),
          partial / 1e3 / blocks.size(),
          (double) partial / whole);
    }
  }

  /**
   * Where the first block document's event block's {@code Times} section ends in a decoded journal
   * block: the documents' lengths, the document's field count, field header and length, then {@code
   * io.quarry.codecs.block.EventBlockFormat}'s header and section table.
   */
  static int timesEnd(byte[] block, int documents) throws java.io.IOException {
    ByteArrayDataInput in = new ByteArrayDataInput(block);
    for (int d = 0; d < documents; d++) {
      in.readVInt(); // the documents' lengths
    }
    in.readVInt(); // fields
    in.readVInt(); // field header
    int length = in.readVInt(); // the binary field's: the event block
    int start = in.getPosition();
    return start + EventBlockTimes.end(block, start, block.length - start, length);
  }
}
