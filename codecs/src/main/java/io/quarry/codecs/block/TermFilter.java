package io.quarry.codecs.block;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.apache.lucene.util.BytesRef;

/**
 * A block's term filter (issue 23, bucket layout 3): a split-block bloom filter over the distinct
 * terms of the block's events, which a term query probes instead of reading a posting list. "No" is
 * exact (the block holds no event with the term); "maybe" is wrong for about one absent term in 800
 * at {@link #BITS_PER_TERM} bits a term (bounded in {@code TermFilterConformanceTest}), and the
 * per-event check reads such a block for nothing.
 *
 * <pre>
 * Filter := Version(byte=1) Blocks(VInt) Word(int, little-endian)^(8 × Blocks)
 * </pre>
 *
 * A term is its {@link io.quarry.codecs.tokens.TermSet} bytes (lower-cased UTF-8). Its 64-bit
 * {@link #hash} picks one 256-bit block, {@code ((hash >>> 32) × Blocks) >>> 32} (unsigned), and in
 * it one bit of each of the eight 32-bit words, word {@code i}'s bit {@code (key × SALT[i]) >>> 27}
 * of the low 32 bits {@code key} (unsigned, modulo 2³²) — Parquet's split-block filter, so a probe
 * reads 32 bytes. A filter holds a term when all eight bits are set. Beside the terms it holds each
 * distinct {@link #PREFIX}-byte prefix of a term at least that long, hashed as {@link #prefixHash}
 * ({@code hash} of the prefix's bytes xor {@code 0x5BD1E9955BD1E995}), so a wildcard term with a
 * literal prefix of that length ({@code fail*}) is a probe too. {@code Blocks} is {@code max(1,
 * ceil(entries × BITS_PER_TERM / 256))} when written, entries being the distinct terms and prefixes
 * ({@link TermFilterGroups#BLOCK_BITS} bits an entry instead for a block in a group, whose group's
 * filter is probed first; {@link TermFilterGroups#BITS} for the group's filter over its blocks'
 * distinct entries, each as its {@link #groupHash}); a reader takes any count ≥ 1 the length agrees
 * with. The hash over a term's {@code n} bytes:
 *
 * <pre>
 * h := n × 0x9E3779B97F4A7C15
 * for each whole 8 bytes w (little-endian): h := (h xor w) × 0xBF58476D1CE4E5B9; h := h xor (h >>> 32)
 * t := the 0–7 bytes left, little-endian, zero above;  h := (h xor t) × 0x94D049BB133111EB
 * h := h xor (h >>> 33); h := h × 0xFF51AFD7ED558CCD; h := h xor (h >>> 33);
 * h := h × 0xC4CEB9FE1A85EC53; h := h xor (h >>> 33)          (arithmetic modulo 2⁶⁴)
 * </pre>
 *
 * Written by {@link TermFilterFormat}, a filter holds its block's entries but the segment's {@link
 * CommonTerms} (a "maybe" in every block), and is sized for the entries it holds.
 *
 * <p>The filter has no checksum of its own: it lives in the segment's doc values, whose file Lucene
 * checksums (checked at merges and by {@code quarry fsck}), and {@code fsck} also probes every term
 * of every block's events against its block's filter ({@code store.BlockBucketCheck}).
 */
public final class TermFilter {
  /** The version byte of the grammar above. */
  public static final byte VERSION = 1;

  /** Bits of filter per distinct entry (term or prefix), as written. */
  public static final int BITS_PER_TERM = 16;

  /** The length in bytes of the term prefixes a filter holds beside the terms. */
  public static final int PREFIX = 4;

  private static final long PREFIX_SEED = 0x5BD1E9955BD1E995L;

  /** Parquet's split-block salts: one odd multiplier per 32-bit word of a block. */
  private static final int[] SALT = {
    0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31
  };

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private TermFilter() {}

  /**
   * The hash of the grammar above over {@code length} bytes of {@code bytes} from {@code offset}.
   */
  public static long hash(byte[] bytes, int offset, int length) {
    long h = length * 0x9E3779B97F4A7C15L;
    int i = 0;
    for (; i + Long.BYTES <= length; i += Long.BYTES) {
      h = (h ^ (long) LONGS.get(bytes, offset + i)) * 0xBF58476D1CE4E5B9L;
      h ^= h >>> 32;
    }
    long tail = 0;
    for (int shift = 0; i < length; i++, shift += 8) {
      tail |= (bytes[offset + i] & 0xFFL) << shift;
    }
    h = (h ^ tail) * 0x94D049BB133111EBL;
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB9FE1A85EC53L;
    return h ^ (h >>> 33);
  }

  /** The hash of the {@link #PREFIX} bytes of {@code bytes} from {@code offset}, as a prefix. */
  public static long prefixHash(byte[] bytes, int offset) {
    return hash(bytes, offset, PREFIX) ^ PREFIX_SEED;
  }

  /**
   * The hash an entry of hash {@code hash} is held as in a group's filter ({@link
   * TermFilterGroups}): its halves swapped, so that the group filter's 256-bit block and bits
   * follow other bits of the hash than a block filter's (a false "maybe" in one says nothing of the
   * other).
   */
  public static long groupHash(long hash) {
    return Long.rotateLeft(hash, 32);
  }

  /** The hash of one term's bytes. */
  public static long hash(BytesRef term) {
    return hash(term.bytes, term.offset, term.length);
  }

  /** The number of 256-bit blocks a filter of {@code terms} distinct terms is written with. */
  public static int blocksFor(int terms) {
    return blocksFor(terms, BITS_PER_TERM);
  }

  /** The number of 256-bit blocks of a filter of {@code terms} entries at {@code bits} an entry. */
  public static int blocksFor(int terms, int bits) {
    return (int) Math.max(1, ((long) terms * bits + 255) / 256);
  }

  /**
   * A filter being written: {@link #add} each term's hash, then {@link #toBytes}. Reusable after
   * {@link #reset}.
   */
  public static final class Builder {
    private int[] words = new int[8];
    private int blocks;

    /** Empties the filter and sizes it for {@code terms} distinct terms. */
    public Builder reset(int terms) {
      return reset(terms, BITS_PER_TERM);
    }

    /** Empties the filter and sizes it for {@code terms} distinct entries at {@code bits} each. */
    public Builder reset(int terms, int bits) {
      blocks = blocksFor(terms, bits);
      if (words.length < blocks * 8) {
        words = new int[blocks * 8];
      } else {
        java.util.Arrays.fill(words, 0, blocks * 8, 0);
      }
      return this;
    }

    /** Adds the term whose {@link #hash} is {@code hash}. */
    public void add(long hash) {
      int base = block(hash, blocks) * 8;
      int key = (int) hash;
      for (int i = 0; i < 8; i++) {
        words[base + i] |= bit(key, i);
      }
    }

    /** The filter's bytes in the grammar above. */
    public byte[] toBytes() {
      int header = 1 + vIntLength(blocks);
      byte[] bytes = new byte[header + blocks * 32];
      bytes[0] = VERSION;
      int p = 1;
      for (int v = blocks; ; v >>>= 7) {
        if ((v & ~0x7F) == 0) {
          bytes[p++] = (byte) v;
          break;
        }
        bytes[p++] = (byte) ((v & 0x7F) | 0x80);
      }
      for (int w = 0; w < blocks * 8; w++) {
        INTS.set(bytes, header + 4 * w, words[w]);
      }
      return bytes;
    }
  }

  /**
   * Whether the filter in {@code filter} may hold the term whose {@link #hash} is {@code hash}:
   * false only when no event of its block has the term.
   *
   * @throws CorruptBlockException when the bytes are no filter of this grammar
   */
  public static boolean mayContain(BytesRef filter, long hash) throws CorruptBlockException {
    int words = words(filter);
    int blocks = (filter.offset + filter.length - words) / 32;
    int base = words + block(hash, blocks) * 32;
    int key = (int) hash;
    for (int i = 0; i < 8; i++) {
      if (((int) INTS.get(filter.bytes, base + 4 * i) & bit(key, i)) == 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * A copy of {@code filter} that also holds the entries whose hashes are {@code hashes} (its size
   * as it was: the more entries, the more false "maybe"s).
   *
   * @throws CorruptBlockException when the bytes are no filter of this grammar
   */
  public static byte[] addTo(BytesRef filter, long[] hashes) throws CorruptBlockException {
    byte[] copy = BytesRef.deepCopyOf(filter).bytes;
    int words = words(new BytesRef(copy));
    int blocks = (copy.length - words) / 32;
    for (long hash : hashes) {
      int base = words + block(hash, blocks) * 32;
      int key = (int) hash;
      for (int i = 0; i < 8; i++) {
        INTS.set(copy, base + 4 * i, (int) INTS.get(copy, base + 4 * i) | bit(key, i));
      }
    }
    return copy;
  }

  /** Where the words of {@code filter} begin in its bytes, its header checked. */
  private static int words(BytesRef filter) throws CorruptBlockException {
    byte[] bytes = filter.bytes;
    int p = filter.offset;
    int end = p + filter.length;
    if (filter.length < 2 || bytes[p++] != VERSION) {
      throw new CorruptBlockException(
          "term filter: " + (filter.length < 2 ? "too short" : "unknown version " + bytes[p - 1]));
    }
    int blocks = 0;
    for (int shift = 0; ; shift += 7) {
      if (p == end || shift > 28) {
        throw new CorruptBlockException("term filter: bad block count");
      }
      byte b = bytes[p++];
      blocks |= (b & 0x7F) << shift;
      if (b >= 0) {
        break;
      }
    }
    if (blocks < 1 || (long) blocks * 32 != end - p) {
      throw new CorruptBlockException(
          "term filter: " + blocks + " blocks in " + (end - p) + " bytes");
    }
    return p;
  }

  /** The 256-bit block of a filter of {@code blocks} blocks that {@code hash} picks. */
  static int block(long hash, int blocks) {
    return (int) (((hash >>> 32) * blocks) >>> 32);
  }

  /** The bit that the low 32 bits of a hash, {@code key}, set in word {@code word} of its block. */
  static int bit(int key, int word) {
    return 1 << ((key * SALT[word]) >>> 27);
  }

  private static int vIntLength(int v) {
    int length = 1;
    while ((v & ~0x7F) != 0) {
      v >>>= 7;
      length++;
    }
    return length;
  }
}
