package io.quarry.codecs.journal;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The journal blocks of one open segment whose decoded bytes have matched the block index's CRC32C
 * in this process, each with the CRC32C of the compressed bytes it was decoded from. A later decode
 * of the block checks its compressed bytes against that instead of its decoded bytes against the
 * index: about a tenth of the bytes on compact blocks (the CRC was ~3% of a search-time {@code rex
 * | stats count by} scan, session 42), and what it catches is the same — stored bytes that differ
 * from the ones that decoded to the indexed checksum fail the cheap check, and are then checked in
 * full as the first read was (so damage after the first read is still a {@code
 * CorruptIndexException}, on every read). What it no longer re-checks is the decoder itself giving
 * other bytes for the same input, which nothing in the store guards against elsewhere either
 * (Lucene checks no stored-fields block on read at all, only whole files at merges and {@code
 * CheckIndex}). A CRC32C collision between damaged and verified compressed bytes is as likely as
 * one between damaged and indexed decoded bytes.
 *
 * <p>Shared by a segment's reader and its clones, so any thread's verification serves all; lives as
 * long as the segment's core reader (8 bytes a block). Racing threads may both verify a block in
 * full; each records the same value.
 */
final class VerifiedBlocks {
  private static final long KNOWN = 1L << 32;

  private final AtomicLongArray compressedChecksums; // 0 unknown, else KNOWN | CRC32C

  VerifiedBlocks(int blocks) {
    this.compressedChecksums = new AtomicLongArray(blocks);
  }

  /**
   * Whether {@code block}'s decoded bytes were verified from compressed bytes whose CRC32C is
   * {@code compressedChecksum}.
   */
  boolean verified(int block, int compressedChecksum) {
    return compressedChecksums.get(block) == (KNOWN | Integer.toUnsignedLong(compressedChecksum));
  }

  /**
   * Records that {@code block} decoded from compressed bytes of CRC32C {@code compressedChecksum}
   * to bytes that matched the index's checksum. The first verified bytes stay the reference.
   */
  void verify(int block, int compressedChecksum) {
    compressedChecksums.compareAndSet(block, 0, KNOWN | Integer.toUnsignedLong(compressedChecksum));
  }

  /** How many blocks are verified (for tests). */
  int count() {
    int count = 0;
    for (int i = 0; i < compressedChecksums.length(); i++) {
      count += compressedChecksums.get(i) != 0 ? 1 : 0;
    }
    return count;
  }
}
