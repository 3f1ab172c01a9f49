package io.quarry.codecs.journal;

import com.github.luben.zstd.EndDirective;
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
    int compress(byte[] source, int length, int documents, byte[] target, boolean compact) {
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

    /** Copies the stored bytes up to {@code target}'s limit: nothing to decode past them. */
    @Override
    boolean decompressPrefix(ByteBuffer source, ByteBuffer target, boolean first)
        throws IOException {
      int wanted = target.remaining();
      if (wanted > source.remaining()) {
        throw new IOException(
            "stored block cut after "
                + (target.position() + source.remaining())
                + " bytes, "
                + target.limit()
                + " asked");
      }
      target.put(source.slice(source.position(), wanted));
      source.position(source.position() + wanted);
      return true;
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
    int compress(byte[] source, int length, int documents, byte[] target, boolean compact) {
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

    @Override
    boolean decompressPrefix(ByteBuffer source, ByteBuffer target, boolean first)
        throws IOException {
      Lz4PrefixDecoder.get().decode(source, target, first);
      return true;
    }
  },
  /**
   * Zstandard (zstd-jni): the default, a much better ratio at a decode speed close to lz4's. Level
   * 1 for blocks written fast, 12 for compact ones: on access logs in 128 KiB blocks 9 writes at
   * about a third of 3's speed (~100 vs ~350 MB/s a core) but its blocks are 18% smaller and decode
   * 25-30% faster (~2.4 vs ~1.9 GB/s), since it finds fewer, longer matches; 12 rather than 9
   * (session 42): on the 10M access log's compact blocks 4.1% fewer journal bytes and ~9% faster to
   * decode (the search-time rex count's search CPU -5%), for ~1.6x the compaction's encode CPU
   * (52-56 vs 90-98 MB/s a core; 10 was no faster end to end, 15 writes at 23 MB/s:
   * docs/design/block-index.md, "The compact journal's decode (session 42, zscan)"). Level 1 rather
   * than 3 (session 27): fast blocks are what ingest writes at every flush, and large merges
   * rewrite them compact anyway; on a block bucket's journal (1,966 blocks of ~267 KB, one block
   * document each) 1 wrote 1.47x faster than 3 and decoded 1.4x faster for 1.1% more bytes
   * (JournalCodecChoices).
   */
  ZSTD(2) {
    private static final int LEVEL = 1;
    private static final int COMPACT_LEVEL =
        JournalStoredFieldsFormat.compactLevel(
            12, Zstd.minCompressionLevel(), Zstd.maxCompressionLevel());
    // A decompression context per thread: making one per block costs more than decoding the block.
    // Threads are few (workers, merges) and live long, so the contexts are never freed explicitly.
    // A prefix read's input piece (see decompressPrefix).
    private static final int PIECE = 2 << 10;
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
    int compress(byte[] source, int length, int documents, byte[] target, boolean compact)
        throws IOException {
      ZstdCompressCtx context = (compact ? COMPACTORS : COMPRESSORS).get();
      try {
        int timesEnd = JournalTimesEnd.of(source, length, documents);
        if (timesEnd <= 0 || timesEnd >= length) {
          return context.compressByteArray(target, 0, target.length, source, 0, length);
        }
        // One frame as compressByteArray writes it (its content size pledged), a zstd block ended
        // where the first event block's times end: FLUSH there, then END.
        context.setPledgedSrcSize(length);
        ByteBuffer out = ByteBuffer.wrap(target);
        ByteBuffer in = ByteBuffer.wrap(source, 0, timesEnd);
        while (!context.compressByteBufferStream(out, in, EndDirective.FLUSH)) {
          growing(out);
        }
        in = ByteBuffer.wrap(source, timesEnd, length - timesEnd);
        while (!context.compressByteBufferStream(out, in, EndDirective.END)) {
          growing(out);
        }
        return out.position();
      } catch (IOException | RuntimeException e) {
        context.reset(); // a stream stopped inside a frame: start the next block afresh
        context.setLevel(level(compact));
        throw new IOException("zstd compression failed: " + e.getMessage(), e);
      }
    }

    /** A stream that has not finished with its output full cannot finish: compressBound lied. */
    private static void growing(ByteBuffer out) throws IOException {
      if (!out.hasRemaining()) {
        throw new IOException("zstd block past its bound of " + out.capacity() + " bytes");
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
        // The input in pieces: given a whole zstd block past the one that holds what is asked,
        // the decoder decodes it too, output full or not; short of input it stops and waits.
        ByteBuffer piece = source.duplicate();
        piece.limit(Math.min(source.limit(), piece.position() + PIECE));
        while (target.hasRemaining()) {
          if (!piece.hasRemaining() && piece.limit() < source.limit()) {
            piece.limit(Math.min(source.limit(), piece.position() + PIECE));
          }
          int read = piece.position();
          int written = target.position();
          boolean ended = context.decompressByteBufferStream(target, piece);
          if (ended && target.hasRemaining()) {
            throw new IOException("zstd block ended after " + target.position() + " bytes");
          }
          if (piece.position() == read && target.position() == written) {
            throw new IOException("zstd block cut after " + target.position() + " bytes");
          }
        }
        source.position(piece.position());
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
   * Compresses {@code source[0, length)} into {@code target}; returns the compressed length. Zstd
   * ends a zstd block where the block's first document's event block times end ({@link
   * JournalTimesEnd}), so a prefix read decodes little more than the times; still one standard
   * frame, decoding to the same bytes.
   *
   * @param documents how many documents the block holds (its first vints are their lengths)
   * @param compact spend more time writing for a smaller block that decodes at least as fast (for
   *     segments made to last: see {@link JournalStoredFieldsFormat})
   */
  abstract int compress(byte[] source, int length, int documents, byte[] target, boolean compact)
      throws IOException;

  /** Decompresses exactly {@code targetLength} bytes, or throws. */
  abstract void decompress(byte[] source, int sourceLength, byte[] target, int targetLength)
      throws IOException;

  /**
   * Decodes a block's next bytes, up to {@code target}'s limit, by a streaming decoder that stops
   * there: {@code first} for a block's first call, then again with a higher limit over the same
   * buffers, never past the block's length. Returns false when a codec cannot stop inside a block
   * (then nothing was decoded, decode it whole; every codec can since session 47, when none's
   * prefix read became a copy of the bytes asked). A streaming decode still decodes whole internal
   * blocks (zstd's are up to 128 KiB; the writer ends one at an event block's times), so zstd is
   * fed the input in pieces of 2 KiB: given a whole next block it would decode that too. lz4 stops
   * at the very byte ({@link Lz4PrefixDecoder}, session 40). Nothing checks the block's checksum.
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
