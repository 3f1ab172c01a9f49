package io.quarry.codecs.journal;

import static io.quarry.codecs.journal.JournalStoredFieldsWriter.BINARY;
import static io.quarry.codecs.journal.JournalStoredFieldsWriter.TYPE_MASK;

import io.quarry.codecs.block.EventBlockTimes;
import java.io.IOException;
import org.apache.lucene.store.ByteArrayDataInput;

/**
 * Where a decoded journal block's first document's event block {@code Times} section ends, so that
 * the zstd writer can end a zstd block there ({@link JournalCodec#compress}) and a prefix read
 * ({@link JournalPrefix}, {@code store.PrefixTimes}) decodes a few KiB instead of the first 128 KiB
 * (session 33, flush). Found from the block's own bytes — the documents' lengths, the first field's
 * header, then the event block's header and section table ({@link EventBlockTimes#end}) — so the
 * journal needs no hint from the block writer. A first document that only looks like an event block
 * costs a zstd block boundary (a few bytes), never a wrong byte: where a zstd block ends changes
 * the compressed bytes, not what they decode to.
 */
final class JournalTimesEnd {
  private JournalTimesEnd() {}

  /**
   * The offset in {@code raw[0, length)} (a journal block of {@code documents} documents, as
   * written) where the first document's event block's times end, or -1 when that document does not
   * start with a binary field holding an event block.
   */
  static int of(byte[] raw, int length, int documents) {
    try {
      ByteArrayDataInput in = new ByteArrayDataInput(raw, 0, length);
      for (int d = 0; d < documents; d++) {
        in.readVInt(); // the documents' lengths
      }
      int fields = in.readVInt();
      int header = in.readVInt();
      if (fields < 1 || (header & TYPE_MASK) != BINARY) {
        return -1;
      }
      int valueLength = in.readVInt();
      int start = in.getPosition();
      if (valueLength <= 0 || (long) start + valueLength > length) {
        return -1;
      }
      int end = EventBlockTimes.end(raw, start, valueLength, valueLength);
      return end <= 0 ? -1 : start + end;
    } catch (IOException | RuntimeException e) {
      return -1; // not an event block: no zstd block ended early
    }
  }
}
