package io.quarry.codecs.block;

import org.apache.lucene.index.CorruptIndexException;

/** An event block that fails its checksum, is cut short, or is of an unknown version. */
public final class CorruptBlockException extends CorruptIndexException {
  public CorruptBlockException(String message) {
    super(message, EventBlockFormat.RESOURCE);
  }
}
