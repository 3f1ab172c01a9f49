package io.quarry.codecs.journal;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import java.io.IOException;
import java.nio.ByteBuffer;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * How the blocks of one journal file are compressed. The id is written into every journal file, so
 * a segment is read with the codec it was written with whatever the index's current {@link
 * JournalCompression} setting. Each codec writes blocks fast or compact (more time writing for a
 * smaller block that decodes at least as fast); a reader does not need to know which.
 */
public enum JournalCodec {
  /** No compression: the fastest decode, the largest files. */
  NONE(0) {
    @Override
    int level(boolean compact) {
      return 0;
    }

    @Override
    int maxCompressedLength(int length) {
      return length;
    }

    @Override
    int compress(byte[] source, int length, byte[] target, boolean compact) {
      System.arraycopy(source, 0, target, 0, length);
      return length;
    }

    @Override
    void decompress(byte[] source, int sourceLength, byte[] target, int targetLength)
        throws IOException {
      if (sourceLength != targetLength) {
        throw new IOException(
            "stored block of " + sourceLength + " bytes, expected " + targetLength);
      }
      System.arraycopy(source, 0, target, 0, targetLength);
    }
  },
  /**
   * LZ4 (lz4-java): very fast decode, moderate ratio; compact blocks use the high-compression
   * encoder (same format, slower to write, smaller and as fast to read).
   */
  LZ4(1) {
    private static final int COMPACT_LEVEL = 9; // lz4hc's default
    private final LZ4Compressor compressor = LZ4Factory.fastestInstance().fastCompressor();
    private final LZ4Compressor compactor =
        LZ4Factory.fastestInstance().highCompressor(COMPACT_LEVEL);
    private final LZ4SafeDecompressor decompressor =
        LZ4Factory.fastestInstance().safeDecompressor();

    @Override
    int level(boolean compact) {
      return compact ? COMPACT_LEVEL : 0; // 0: the fast encoder
    }

    @Override
    int maxCompressedLength(int length) {
      return compressor.maxCompressedLength(length);
    }

    @Override
    int compress(byte[] source, int length, byte[] target, boolean compact) {
      return (compact ? compactor : compressor)
          .compress(source, 0, length, target, 0, target.length);
    }

    @Override
    void decompress(byte[] source, int sourceLength, byte[] target, int targetLength)
        throws IOException {
      int written;
      try {
        written = decompressor.decompress(source, 0, sourceLength, target, 0, targetLength);
      } catch (RuntimeException e) {
        throw new IOException("corrupt lz4 block: " + e.getMessage(), e);
      }
      if (written != targetLength) {
        throw new IOException(
            "lz4 block decoded to " + written + " bytes, expected " + targetLength);
      }
    }
  },
  /**
   * Zstandard (zstd-jni): the default, a much better ratio at a decode speed close to lz4's. Level
   * 1 for blocks written fast, 9 for compact ones: on access logs in 128 KiB blocks 9 writes at
   * about a third of 3's speed (~100 vs ~350 MB/s a core) but its blocks are 18% smaller and decode
   * 25-30% faster (~2.4 vs ~1.9 GB/s), since it finds fewer, longer matches. Level 1 rather than 3
   * (session 27): fast blocks are what ingest writes at every flush, and large merges rewrite them
   * compact anyway; on a block bucket's journal (1,966 blocks of ~267 KB, one block document each)
   * 1 wrote 1.47x faster than 3 and decoded 1.4x faster for 1.1% more bytes (JournalCodecChoices).
   */
  ZSTD(2) {
    private static final int LEVEL = 1;
    private static final int COMPACT_LEVEL =
        JournalStoredFieldsFormat.compactLevel(
            9, Zstd.minCompressionLevel(), Zstd.maxCompressionLevel());
    // A decompression context per thread: making one per block costs more than decoding the block.
    // Threads are few (workers, merges) and live long, so the contexts are never freed explicitly.
    private static final ThreadLocal<ZstdDecompressCtx> DECOMPRESSORS =
        ThreadLocal.withInitial(ZstdDecompressCtx::new);
    private static final ThreadLocal<ZstdCompressCtx> COMPRESSORS =
        ThreadLocal.withInitial(() -> new ZstdCompressCtx().setLevel(LEVEL));
    private static final ThreadLocal<ZstdCompressCtx> COMPACTORS =
        ThreadLocal.withInitial(() -> new ZstdCompressCtx().setLevel(COMPACT_LEVEL));

    @Override
    int level(boolean compact) {
      return compact ? COMPACT_LEVEL : LEVEL;
    }

    @Override
    int maxCompressedLength(int length) {
      return (int) Zstd.compressBound(length);
    }

    @Override
    int compress(byte[] source, int length, byte[] target, boolean compact) throws IOException {
      try {
        return (compact ? COMPACTORS : COMPRESSORS)
            .get()
            .compressByteArray(target, 0, target.length, source, 0, length);
      } catch (RuntimeException e) {
        throw new IOException("zstd compression failed: " + e.getMessage(), e);
      }
    }

    @Override
    void decompress(byte[] source, int sourceLength, byte[] target, int targetLength)
        throws IOException {
      int written;
      try {
        written =
            DECOMPRESSORS
                .get()
                .decompressByteArray(target, 0, targetLength, source, 0, sourceLength);
      } catch (RuntimeException e) {
        throw new IOException("corrupt zstd block: " + e.getMessage(), e);
      }
      if (written != targetLength) {
        throw new IOException(
            "zstd block decoded to " + written + " bytes, expected " + targetLength);
      }
    }

    @Override
    boolean decompressPrefix(ByteBuffer source, ByteBuffer target, boolean first)
        throws IOException {
      ZstdDecompressCtx context = DECOMPRESSORS.get();
      try {
        if (first) {
          context.reset(); // the thread's context may have stopped inside another frame
        }
        while (target.hasRemaining()) {
          boolean ended = context.decompressByteBufferStream(target, source);
          if (ended && target.hasRemaining()) {
            throw new IOException("zstd block ended after " + target.position() + " bytes");
          }
        }
      } catch (RuntimeException e) {
        throw new IOException("corrupt zstd block: " + e.getMessage(), e);
      }
      return true;
    }
  };

  private final int id;

  JournalCodec(int id) {
    this.id = id;
  }

  int id() {
    return id;
  }

  /**
   * The encoder level of blocks written fast or compact, recorded in each data file (version 2 on):
   * a merge copies a source's blocks as they are only when their codec and level are those it would
   * write ({@link JournalStoredFieldsWriter#merge}).
   */
  abstract int level(boolean compact);

  abstract int maxCompressedLength(int length);

  /**
   * Compresses {@code source[0, length)} into {@code target}; returns the compressed length.
   *
   * @param compact spend more time writing for a smaller block that decodes at least as fast (for
   *     segments made to last: see {@link JournalStoredFieldsFormat})
   */
  abstract int compress(byte[] source, int length, byte[] target, boolean compact)
      throws IOException;

  /** Decompresses exactly {@code targetLength} bytes, or throws. */
  abstract void decompress(byte[] source, int sourceLength, byte[] target, int targetLength)
      throws IOException;

  /**
   * Decodes a block's next bytes, up to {@code target}'s limit, by a streaming decoder that stops
   * there: {@code first} for a block's first call, then again with a higher limit over the same
   * buffers, never past the block's length. Returns false when this codec cannot stop inside a
   * block (then nothing was decoded: decode it whole). A streaming decode still decodes whole
   * internal blocks (zstd's are up to 128 KiB), and nothing checks the block's checksum.
   */
  boolean decompressPrefix(ByteBuffer source, ByteBuffer target, boolean first) throws IOException {
    return false;
  }

  static JournalCodec byId(int id) throws IOException {
    for (JournalCodec codec : values()) {
      if (codec.id == id) {
        return codec;
      }
    }
    throw new IOException("unknown journal compression id " + id);
  }
}
