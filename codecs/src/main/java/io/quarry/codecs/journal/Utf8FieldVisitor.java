package io.quarry.codecs.journal;

import org.apache.lucene.index.FieldInfo;

/**
 * A stored-fields visitor that takes string fields as the journal's UTF-8 bytes instead of a {@code
 * String}: a {@link org.apache.lucene.index.StoredFieldVisitor} implementing it gets {@link
 * #utf8Field} where it would get {@code stringField}, so a search that only scans {@code _raw} (a
 * {@code rex}) copies no event text. The bytes belong to the reader's decoded block: they stay
 * valid until the next {@code document} call on the same {@code StoredFields} and must not be
 * written.
 */
public interface Utf8FieldVisitor {
  /**
   * A string field's UTF-8 bytes, {@code bytes[offset, offset + length)}.
   *
   * @param ascii true when the journal recorded, as it wrote the block, that every string in it is
   *     ASCII (so a reader need not check the bytes); false when that is not known
   */
  void utf8Field(FieldInfo fieldInfo, byte[] bytes, int offset, int length, boolean ascii);
}
