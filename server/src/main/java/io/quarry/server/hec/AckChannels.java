package io.quarry.server.hec;

import java.time.Clock;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Indexer acknowledgement, as Splunk's HEC does it: each data channel (the client's {@code
 * X-Splunk-Request-Channel}) numbers its requests from 0; the answer to a request carries its
 * {@code ackId}, and {@code POST /services/collector/ack} tells which ids are durable. An id is
 * reported true once, then forgotten, as in Splunk.
 *
 * <p>Quarry acknowledges a request only after its events are fsync'd, so every id it hands out is
 * durable by the time the client can ask; the ack protocol is here so shippers configured for it
 * (Splunk forwarders, Vector and Fluent Bit with acknowledgements on) work unchanged. Memory is
 * bounded: a channel keeps at most {@link #MAX_PENDING} unqueried ids (the oldest are dropped and
 * would then be reported false), channels idle for {@link #IDLE_MILLIS} are dropped, and at most
 * {@link #MAX_CHANNELS} exist at once.
 */
final class AckChannels {
  static final int MAX_PENDING = 100_000;
  static final long IDLE_MILLIS = 10 * 60 * 1000L;
  static final int MAX_CHANNELS = 10_000;

  private static final class Channel {
    long nextId;
    long lastUsed;
    final LinkedHashSet<Long> pending = new LinkedHashSet<>();
  }

  private final ConcurrentMap<String, Channel> channels = new ConcurrentHashMap<>();
  private final Clock clock;

  AckChannels(Clock clock) {
    this.clock = clock;
  }

  /** Numbers a request that was stored durably; returns its ackId. */
  long acknowledge(String channelId) {
    long now = clock.millis();
    if (!channels.containsKey(channelId) && channels.size() >= MAX_CHANNELS) {
      expireIdle(now);
      if (channels.size() >= MAX_CHANNELS) {
        throw HecException.serverBusy(
            "too many data channels with pending acknowledgements (" + MAX_CHANNELS + ")");
      }
    }
    Channel channel = channels.computeIfAbsent(channelId, c -> new Channel());
    synchronized (channel) {
      long id = channel.nextId++;
      channel.pending.add(id);
      if (channel.pending.size() > MAX_PENDING) {
        channel.pending.removeFirst();
      }
      channel.lastUsed = now;
      return id;
    }
  }

  /** Which of {@code ids} are durable; those reported true are forgotten. */
  Map<String, Boolean> query(String channelId, Collection<Long> ids) {
    Map<String, Boolean> answer = new LinkedHashMap<>();
    Channel channel = channels.get(channelId);
    if (channel == null) {
      throw HecException.invalidChannel(channelId);
    }
    synchronized (channel) {
      channel.lastUsed = clock.millis();
      for (Long id : ids) {
        answer.put(Long.toString(id), channel.pending.remove(id));
      }
    }
    return answer;
  }

  private void expireIdle(long now) {
    for (Iterator<Map.Entry<String, Channel>> it = channels.entrySet().iterator(); it.hasNext(); ) {
      Channel channel = it.next().getValue();
      synchronized (channel) {
        if (now - channel.lastUsed > IDLE_MILLIS) {
          it.remove();
        }
      }
    }
  }

  /** Drops idle channels; called now and then by the HEC routes. */
  void maintain() {
    expireIdle(clock.millis());
  }
}
