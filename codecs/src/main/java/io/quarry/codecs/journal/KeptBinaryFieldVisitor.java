package io.quarry.codecs.journal;

import org.apache.lucene.index.FieldInfo;

/**
 * A stored-fields visitor that takes binary fields as the journal's decoded bytes instead of a
 * copy: a {@link org.apache.lucene.index.StoredFieldVisitor} implementing it gets {@link
 * #binaryField} where it would get a {@code byte[]} of its own. The visitor may keep the bytes as
 * long as it likes: the reader never writes a block it lent again (it decodes its next block into
 * new bytes) unless the visitor hands them back ({@link JournalBlock#giveBack}), so a block
 * document's payload — most of its journal block — is not copied once per read. The bytes must not
 * be written. They passed the journal block's CRC32C when it was decoded ({@link
 * JournalStoredFieldsReader#decodeBlock} checks it on every decode), so a format inside them need
 * not check its own checksum over them again.
 */
public interface KeptBinaryFieldVisitor {
  /**
   * A binary field's bytes, {@code bytes[offset, offset + length)}, the visitor's to keep, lent by
   * {@code lender}: {@code lender.giveBack(bytes)} once nothing reads them lets the reader decode
   * its next block into them.
   */
  void binaryField(FieldInfo fieldInfo, byte[] bytes, int offset, int length, JournalBlock lender);
}
