package io.quarry.codecs.metric;

import org.apache.lucene.index.CorruptIndexException;

/** A metric chunk cut short: fewer bytes than its length or header says it has. */
public final class TruncatedChunkException extends CorruptIndexException {
  public TruncatedChunkException(String message) {
    super(message, MetricChunkFormat.RESOURCE);
  }
}
