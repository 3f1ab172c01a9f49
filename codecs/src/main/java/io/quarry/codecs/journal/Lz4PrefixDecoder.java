package io.quarry.codecs.journal;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Decodes an LZ4 block (the raw block format lz4-java's compressors write) no further than asked,
 * and on from there when asked for more: {@link JournalCodec#decompressPrefix} for lz4 journal
 * blocks, so a reader of an event block's times does not decode the texts after them (session 40:
 * lz4 became the fast segments' codec). One decoder per thread, started afresh at a block's first
 * call; it remembers where it stopped inside a sequence (in its literals or its match), since the
 * target's limit may fall anywhere.
 *
 * <p>A block is a run of sequences: a token byte (high nibble the literals' length, low nibble the
 * match's length minus 4; 15 in either: more length bytes follow, each added, until one below 255),
 * the literals, then a two-byte little-endian offset back into the output and the match's further
 * length bytes; the last sequence has literals only and ends the block. A match may overlap its own
 * output (an offset below its length repeats bytes), so it is copied byte by byte. Nothing here
 * checks the journal block's checksum (see {@link JournalPrefix}); an offset outside the output or
 * a block that ends early is reported as corrupt.
 */
final class Lz4PrefixDecoder {
  private static final int TOKEN = 0; // next: a sequence's token
  private static final int LITERALS = 1; // in a sequence's literals (then its offset and match)
  private static final int MATCH = 2; // in a sequence's match
  private static final int ENDED = 3; // the block's last sequence is decoded

  private static final ThreadLocal<Lz4PrefixDecoder> DECODERS =
      ThreadLocal.withInitial(Lz4PrefixDecoder::new);

  private int state;
  private int literalsLeft;
  private int matchNibble; // the token's low nibble, until the match's length is read
  private int matchLeft;
  private int offset;

  /** This thread's decoder. */
  static Lz4PrefixDecoder get() {
    return DECODERS.get();
  }

  /**
   * Decodes from {@code source}'s position into {@code target}'s position until {@code target} is
   * full to its limit, moving both positions; {@code first} starts a block, otherwise it goes on
   * from where the last call over the same buffers stopped. Heap buffers only.
   */
  void decode(ByteBuffer source, ByteBuffer target, boolean first) throws IOException {
    if (first) {
      state = TOKEN;
      literalsLeft = 0;
      matchLeft = 0;
    }
    byte[] in = source.array();
    int sp = source.arrayOffset() + source.position();
    int sourceEnd = source.arrayOffset() + source.limit();
    byte[] out = target.array();
    int outStart = target.arrayOffset(); // the block's first output byte
    int dp = outStart + target.position();
    int limit = outStart + target.limit();
    try {
      while (dp < limit) {
        switch (state) {
          case TOKEN -> {
            if (sp >= sourceEnd) {
              throw corrupt("ends before its last sequence", dp - outStart);
            }
            int token = in[sp++] & 0xFF;
            int literals = token >>> 4;
            if (literals == 15) {
              int more;
              do {
                if (sp >= sourceEnd) {
                  throw corrupt("ends inside a literals' length", dp - outStart);
                }
                more = in[sp++] & 0xFF;
                literals += more;
              } while (more == 255);
            }
            literalsLeft = literals;
            matchNibble = token & 0x0F;
            state = LITERALS;
          }
          case LITERALS -> {
            int n = Math.min(literalsLeft, limit - dp);
            if (n > sourceEnd - sp) {
              throw corrupt("ends inside literals", dp - outStart);
            }
            System.arraycopy(in, sp, out, dp, n);
            sp += n;
            dp += n;
            literalsLeft -= n;
            if (literalsLeft > 0) {
              break; // the target is full
            }
            if (sp == sourceEnd) {
              state = ENDED; // the last sequence: literals only
              break;
            }
            if (sourceEnd - sp < 2) {
              throw corrupt("ends inside an offset", dp - outStart);
            }
            offset = (in[sp] & 0xFF) | (in[sp + 1] & 0xFF) << 8;
            sp += 2;
            if (offset == 0 || offset > dp - outStart) {
              throw corrupt("has a match offset of " + offset, dp - outStart);
            }
            int match = matchNibble;
            if (match == 15) {
              int more;
              do {
                if (sp >= sourceEnd) {
                  throw corrupt("ends inside a match's length", dp - outStart);
                }
                more = in[sp++] & 0xFF;
                match += more;
              } while (more == 255);
            }
            matchLeft = match + 4;
            state = MATCH;
          }
          case MATCH -> {
            int n = Math.min(matchLeft, limit - dp);
            for (int from = dp - offset, end = dp + n; dp < end; ) {
              out[dp++] = out[from++];
            }
            matchLeft -= n;
            if (matchLeft == 0) {
              state = TOKEN;
            }
          }
          default -> throw corrupt("ended", dp - outStart);
        }
      }
    } catch (IndexOutOfBoundsException e) {
      throw new IOException("corrupt lz4 block: " + e.getMessage(), e);
    }
    source.position(sp - source.arrayOffset());
    target.position(dp - outStart);
  }

  private static IOException corrupt(String what, int decoded) {
    return new IOException("corrupt lz4 block: " + what + " after " + decoded + " bytes");
  }
}
