package io.quarry.codecs.store;

import io.quarry.codecs.block.EventBlock;
import io.quarry.codecs.journal.JournalBlock;
import io.quarry.codecs.journal.KeptBinaryFieldVisitor;
import java.io.IOException;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.StoredFieldVisitor;
import org.apache.lucene.index.StoredFields;

/**
 * A block document's event block, taken out of its stored fields: from the journal, a view of its
 * decoded block (no copy of the payload, which is most of that block) that is lent until {@link
 * #giveBack}; else a copy of the stored bytes.
 */
final class BlockPayload extends StoredFieldVisitor implements KeptBinaryFieldVisitor {
  private byte[] bytes;
  private int offset;
  private int length;
  private boolean verified; // lent by the journal, its block's checksum verified
  private JournalBlock lender; // the journal's block that lent the bytes, null once given back

  private BlockPayload() {}

  /**
   * Reads block document {@code doc}'s payload.
   *
   * @throws CorruptIndexException when the document has no block
   */
  static BlockPayload read(StoredFields journal, int doc) throws IOException {
    BlockPayload payload = new BlockPayload();
    journal.document(doc, payload);
    if (payload.bytes == null) {
      throw new CorruptIndexException("block document " + doc + " has no block", "journal");
    }
    return payload;
  }

  /** Opens the event block (the journal checked a lent block's CRC32C: not the block's again). */
  EventBlock open() throws IOException {
    return verified
        ? EventBlock.openVerified(bytes, offset, length)
        : EventBlock.open(bytes, offset, length);
  }

  /**
   * Hands the journal's decoded bytes back for its next block, when they were lent: only once
   * nothing reads the block's events any more, and at most once.
   */
  void giveBack() {
    if (lender != null) {
      lender.giveBack(bytes);
      lender = null;
    }
  }

  @Override
  public Status needsField(FieldInfo fieldInfo) {
    if (bytes != null) {
      return Status.STOP;
    }
    return fieldInfo.name.equals(BlockDocuments.BLOCK) ? Status.YES : Status.NO;
  }

  @Override
  public void binaryField(FieldInfo fieldInfo, byte[] value) {
    bytes = value;
    offset = 0;
    length = value.length;
  }

  @Override
  public void binaryField(
      FieldInfo fieldInfo, byte[] value, int offset, int length, JournalBlock lender) {
    this.lender = lender;
    this.bytes = value;
    this.offset = offset;
    this.length = length;
    this.verified = true;
  }
}
