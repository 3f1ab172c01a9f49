package io.quarry.codecs.journal;

import static io.quarry.codecs.journal.JournalStoredFieldsWriter.BINARY;
import static io.quarry.codecs.journal.JournalStoredFieldsWriter.TYPE_BITS;
import static io.quarry.codecs.journal.JournalStoredFieldsWriter.TYPE_MASK;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.store.ByteArrayDataInput;
import org.apache.lucene.util.ArrayUtil;

/**
 * The first bytes of one document's first stored field, a binary one, decoded from its journal
 * block no further than asked (session 33): a reader that needs only the start of a large value (an
 * event block's times, before its texts) has {@link #ensure} decode up to there and no more. Filled
 * by {@link JournalStoredFieldsReader#readPrefix}; reusable, one per thread.
 *
 * <p>Nothing here checks the journal block's CRC32C, which covers the whole decoded block: a
 * damaged byte past the prefix goes unnoticed by a prefix read, and one inside it is caught only if
 * the decoder or the caller's own checks notice it. The full decodes ({@link
 * JournalStoredFieldsReader#decodeBlock}: every read of a document's fields) and {@code
 * checkIntegrity} ({@code quarry fsck}) still verify every byte. A codec that cannot stop inside a
 * block ({@link JournalCodec#decompressPrefix}: none before session 47, which copies the bytes
 * asked now) would decode it whole here, unverified too.
 */
public final class JournalPrefix {
  byte[] compressed = new byte[0];
  private byte[] bytes = new byte[0];
  private ByteBuffer source;
  private ByteBuffer target;
  private JournalCodec codec;
  private int rawLength;
  private int decoded; // bytes[0, decoded) hold the block's first bytes
  private int start = -1; // where the document's field value starts in bytes, -1: not found yet
  private int valueLength;
  private int fieldNumber; // of the document's first field
  private long nanos; // spent decoding since the block was started
  private final ByteArrayDataInput input = new ByteArrayDataInput();

  /**
   * Starts reading a block whose {@code compressedLength} bytes are in {@link #compressed}, then
   * finds document {@code docInBlock}'s first field (of the block's {@code docCount}).
   */
  void start(
      JournalCodec codec,
      int compressedLength,
      int rawLength,
      int docInBlock,
      int docCount,
      String resource)
      throws IOException {
    if (codec == JournalCodec.NONE && compressedLength != rawLength) {
      throw new CorruptIndexException(
          "an uncompressed block of "
              + compressedLength
              + " stored bytes where its index says "
              + rawLength,
          resource);
    }
    long started = System.nanoTime();
    this.codec = codec;
    this.rawLength = rawLength;
    this.decoded = 0;
    this.start = -1;
    this.nanos = 0;
    if (bytes.length < rawLength) {
      bytes = new byte[ArrayUtil.oversize(rawLength, 1)];
    }
    source = ByteBuffer.wrap(compressed, 0, compressedLength);
    target = ByteBuffer.wrap(bytes, 0, rawLength).limit(0);
    nanos += System.nanoTime() - started;
    try {
      ensure(Math.min(rawLength, docCount * 5 + 16)); // the documents' lengths, a field's header
      input.reset(bytes, 0, decoded);
      int documentStart = 0;
      for (int d = 0; d < docCount; d++) {
        int length = input.readVInt();
        documentStart += d < docInBlock ? length : 0;
      }
      within(input.getPosition(), resource);
      documentStart += input.getPosition();
      ensure(Math.min(rawLength, documentStart + 16)); // fields, header, length: 3 vints
      input.reset(bytes, documentStart, decoded - documentStart);
      int fields = input.readVInt();
      int header = input.readVInt();
      if (fields < 1 || (header & TYPE_MASK) != BINARY) {
        throw new CorruptIndexException(
            "document " + docInBlock + " does not start with a binary field", resource);
      }
      valueLength = input.readVInt();
      within(input.getPosition(), resource);
      fieldNumber = header >>> TYPE_BITS;
      start = input.getPosition();
      if (start + valueLength > rawLength) {
        throw new CorruptIndexException(
            "a field of " + valueLength + " bytes at " + start + " of " + rawLength, resource);
      }
    } catch (CorruptIndexException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CorruptIndexException("journal block prefix: " + e.getMessage(), resource, e);
    }
  }

  /**
   * Whether the reads so far stayed in the decoded bytes (past them they would read stale ones).
   */
  private void within(int position, String resource) throws CorruptIndexException {
    if (position > decoded) {
      throw new CorruptIndexException(
          "journal block prefix read to " + position + " of " + decoded + " decoded", resource);
    }
  }

  /** The field number of the document's first field. */
  public int fieldNumber() {
    return fieldNumber;
  }

  /** The decoded bytes: {@link #valueStart} on, the field's value as far as {@link #ensure}d. */
  public byte[] bytes() {
    return bytes;
  }

  /** Where the document's first field's value starts in {@link #bytes()}. */
  public int valueStart() {
    return start;
  }

  /** The length of the document's first field's value, of which only a prefix may be decoded. */
  public int valueLength() {
    return valueLength;
  }

  /** How many of the block's compressed bytes the decoder took so far. */
  int consumed() {
    return source.position();
  }

  /** How many bytes of the block are decoded: {@code bytes()[0, decoded())}. */
  public int decoded() {
    return decoded;
  }

  /**
   * Decodes the block at least up to {@code end} (an offset into {@link #bytes()}, at most the
   * value's end); a codec that cannot stop inside a block decodes it whole the first time.
   */
  public void ensure(int end) throws IOException {
    if (end <= decoded) {
      return;
    }
    if (end > rawLength) {
      throw new CorruptIndexException(
          "journal block prefix of " + end + " bytes past its " + rawLength, "journal");
    }
    long started = System.nanoTime();
    target.limit(end);
    if (!codec.decompressPrefix(source, target, decoded == 0)) {
      codec.decompress(compressed, source.limit(), bytes, rawLength);
      decoded = rawLength;
    } else {
      decoded = target.position();
    }
    nanos += System.nanoTime() - started;
  }

  /**
   * Counts what this block's prefix cost in the thread's {@link JournalReads}: one block, the bytes
   * decoded, the time spent. Call once per block, after its last {@link #ensure}.
   */
  public void account() {
    JournalReads.addPrefix(nanos, decoded);
  }
}
