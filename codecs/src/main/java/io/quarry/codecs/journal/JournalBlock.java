package io.quarry.codecs.journal;

import static io.quarry.codecs.journal.JournalStoredFieldsWriter.BINARY;
import static io.quarry.codecs.journal.JournalStoredFieldsWriter.DOUBLE;
import static io.quarry.codecs.journal.JournalStoredFieldsWriter.FLOAT;
import static io.quarry.codecs.journal.JournalStoredFieldsWriter.INT;
import static io.quarry.codecs.journal.JournalStoredFieldsWriter.LONG;
import static io.quarry.codecs.journal.JournalStoredFieldsWriter.STRING;
import static io.quarry.codecs.journal.JournalStoredFieldsWriter.TYPE_BITS;
import static io.quarry.codecs.journal.JournalStoredFieldsWriter.TYPE_MASK;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.StoredFieldDataInput;
import org.apache.lucene.index.StoredFieldVisitor;
import org.apache.lucene.store.ByteArrayDataInput;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;

/**
 * One decoded journal block, reusable: its documents' bytes and where each starts. Filled by {@link
 * JournalStoredFieldsReader#decodeBlock}; read one document at a time by {@link #visit} or, for a
 * dense scan of one string field, by {@link #stringField} without allocating.
 */
public final class JournalBlock {
  byte[] bytes = new byte[0];
  int loans; // visitors holding bytes: while any does, the next block is decoded into new ones
  int block = -1;
  private int docBase;
  private int docCount;
  private boolean ascii; // every string in the block is ASCII (recorded when it was written)
  private int[] docStarts = new int[1];
  private final ByteArrayDataInput input = new ByteArrayDataInput();

  /** The block number, or -1 while empty. */
  public int block() {
    return block;
  }

  /** The segment doc id of the block's first document. */
  public int docBase() {
    return docBase;
  }

  public int docCount() {
    return docCount;
  }

  /** Parses the document offsets after {@code bytes[0, length)} was filled for {@code block}. */
  void index(int block, int docBase, int docCount, int length, boolean ascii) throws IOException {
    this.block = block;
    this.ascii = ascii;
    this.docBase = docBase;
    this.docCount = docCount;
    docStarts = ArrayUtil.grow(docStarts, docCount + 1);
    input.reset(bytes, 0, length);
    int[] lengths = new int[docCount];
    for (int i = 0; i < docCount; i++) {
      lengths[i] = input.readVInt();
    }
    int start = input.getPosition();
    for (int i = 0; i < docCount; i++) {
      docStarts[i] = start;
      start += lengths[i];
    }
    docStarts[docCount] = start;
    if (start != length) {
      this.block = -1;
      throw new CorruptIndexException(
          "journal block " + block + ": documents end at " + start + " of " + length + " bytes",
          "journal block");
    }
  }

  /** Sends the stored fields of one document of this block to a visitor. */
  public void visit(int docInBlock, StoredFieldVisitor visitor, FieldInfos fieldInfos)
      throws IOException {
    input.reset(bytes, docStarts[docInBlock], docStarts[docInBlock + 1] - docStarts[docInBlock]);
    int fields = input.readVInt();
    for (int i = 0; i < fields; i++) {
      int header = input.readVInt();
      int type = header & TYPE_MASK;
      FieldInfo info = fieldInfos.fieldInfo(header >>> TYPE_BITS);
      if (info == null) {
        throw new CorruptIndexException(
            "unknown field number " + (header >>> TYPE_BITS), "journal");
      }
      switch (visitor.needsField(info)) {
        case YES -> read(info, type, visitor);
        case NO -> skip(type);
        case STOP -> {
          return;
        }
      }
    }
  }

  /**
   * Points {@code into} at the UTF-8 bytes of a string field of one document, without copying.
   *
   * @return false when the document does not have the field as a string
   */
  public boolean stringField(int docInBlock, int fieldNumber, BytesRef into) throws IOException {
    input.reset(bytes, docStarts[docInBlock], docStarts[docInBlock + 1] - docStarts[docInBlock]);
    int fields = input.readVInt();
    for (int i = 0; i < fields; i++) {
      int header = input.readVInt();
      int type = header & TYPE_MASK;
      if ((header >>> TYPE_BITS) == fieldNumber && type == STRING) {
        int length = input.readVInt();
        into.bytes = bytes;
        into.offset = input.getPosition();
        into.length = length;
        return true;
      }
      skip(type);
    }
    return false;
  }

  /**
   * Takes back bytes lent to a {@link KeptBinaryFieldVisitor} that no longer reads them nor
   * anything made from them: once every loan of this block's bytes is back, the next block is
   * decoded into the same bytes instead of new ones (no allocation and zeroing of ~250 KB per
   * block). Bytes of a block decoded over since are not taken (they are no longer this block's).
   * Call it at most once per loan, on the thread that reads through this block.
   */
  public void giveBack(byte[] lent) {
    if (lent == bytes && loans > 0) {
      loans--;
    }
  }

  private void read(FieldInfo info, int type, StoredFieldVisitor visitor) throws IOException {
    switch (type) {
      case STRING -> {
        int length = input.readVInt();
        int offset = input.getPosition();
        input.skipBytes(length);
        if (visitor instanceof Utf8FieldVisitor utf8) {
          utf8.utf8Field(info, bytes, offset, length, ascii);
        } else {
          visitor.stringField(info, new String(bytes, offset, length, StandardCharsets.UTF_8));
        }
      }
      case BINARY -> {
        int length = input.readVInt();
        int offset = input.getPosition();
        input.skipBytes(length);
        if (visitor instanceof KeptBinaryFieldVisitor keeps) {
          loans++;
          keeps.binaryField(info, bytes, offset, length, this);
        } else {
          visitor.binaryField(
              info,
              new StoredFieldDataInput(new ByteArrayDataInput(bytes, offset, length), length));
        }
      }
      case INT -> visitor.intField(info, input.readZInt());
      case LONG -> visitor.longField(info, input.readZLong());
      case FLOAT -> visitor.floatField(info, Float.intBitsToFloat(input.readInt()));
      case DOUBLE -> visitor.doubleField(info, Double.longBitsToDouble(input.readLong()));
      default -> throw new CorruptIndexException("unknown stored field type " + type, "journal");
    }
  }

  private void skip(int type) throws IOException {
    switch (type) {
      case STRING, BINARY -> input.skipBytes(input.readVInt());
      case INT -> input.readZInt();
      case LONG -> input.readZLong();
      case FLOAT -> input.skipBytes(Integer.BYTES);
      case DOUBLE -> input.skipBytes(Long.BYTES);
      default -> throw new CorruptIndexException("unknown stored field type " + type, "journal");
    }
  }
}
