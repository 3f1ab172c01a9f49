package io.quarry.codecs.store;

import java.io.IOException;

/**
 * An index refused a batch because compaction lags too far behind ingest ({@link
 * FullBucketRolls#backlogged}): {@code maxWaitingBuckets} full buckets wait for their roll and the
 * hot bucket holds twice its {@code maxBucketEvents}. Thrown by {@link IndexStore#add} before
 * anything of the batch is stored or logged; nothing acknowledged is affected. The server answers
 * 503 with {@code Retry-After}, as for a full ingest queue: a shipper retries later, by when a
 * waiting bucket may have rolled.
 */
public final class IndexBusyException extends IOException {
  public IndexBusyException(String message) {
    super(message);
  }
}
