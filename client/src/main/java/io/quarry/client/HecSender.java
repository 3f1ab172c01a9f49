package io.quarry.client;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends events to Quarry's (or any Splunk) HTTP Event Collector from an application: events are
 * buffered (bounded), batched by count, size and time, gzip-compressed, retried on 503/429 after
 * the server's {@code Retry-After} and on connection errors with backoff, and — with {@link
 * Builder#ack} — confirmed through indexer acknowledgement before {@link #flush} returns.
 *
 * <pre>{@code
 * try (HecSender hec = HecSender.builder(URI.create("http://127.0.0.1:8088"), token)
 *     .index("main").sourcetype("app").build()) {
 *   hec.send("user=alice action=login");
 *   hec.flush(); // returns when everything sent so far is durable
 * }
 * }</pre>
 *
 * One background thread sends; {@link #send} only enqueues, and blocks up to {@link
 * Builder#offerTimeout} when the buffer is full (then it fails: the application decides whether to
 * drop or wait). A batch the server rejects for good (a 4xx) is reported by the next {@link #flush}
 * or {@link #close}.
 */
public final class HecSender implements Closeable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<String, String> defaults;
  private final int batchEvents;
  private final int batchBytes;
  private final Duration flushInterval;
  private final Duration offerTimeout;
  private final HecPoster poster;
  private final BlockingQueue<Object> queue;
  private final Thread sender;
  private final AtomicReference<QuarryClientException> failure = new AtomicReference<>();
  private final AtomicLong sent = new AtomicLong();
  private final List<CompletableFuture<Void>> flushes = new ArrayList<>(); // sender thread only
  private volatile boolean closed;

  private HecSender(Builder builder) {
    this.defaults = Map.copyOf(builder.defaults);
    this.batchEvents = builder.batchEvents;
    this.batchBytes = builder.batchBytes;
    this.flushInterval = builder.flushInterval;
    this.offerTimeout = builder.offerTimeout;
    this.poster =
        new HecPoster(
            builder.baseUri,
            builder.token,
            builder.gzip,
            builder.ack ? UUID.randomUUID().toString() : null,
            builder.sslContext);
    this.queue = new ArrayBlockingQueue<>(builder.maxBufferedEvents);
    this.sender = new Thread(this::run, "quarry-hec-sender");
    sender.setDaemon(true);
    sender.start();
  }

  public static Builder builder(URI baseUri, String token) {
    return new Builder(baseUri, token);
  }

  /** Queues an event with the sender's defaults and the current time. */
  public void send(String event) {
    requireNonNull(event, "event is null");
    Map<String, Object> envelope = new LinkedHashMap<>();
    envelope.put("time", Instant.now().toEpochMilli() / 1000.0);
    envelope.put("event", event);
    send(envelope);
  }

  /**
   * Queues an event envelope ({@code event}, and optionally {@code time}, {@code host}, {@code
   * source}, {@code sourcetype}, {@code index}, {@code fields}); the sender's defaults fill what it
   * leaves out.
   *
   * @throws QuarryClientException when the buffer stays full for the offer timeout, or the sender
   *     is closed
   */
  public void send(Map<String, ?> envelope) {
    requireNonNull(envelope, "envelope is null");
    if (closed) {
      throw new QuarryClientException("the HEC sender is closed", null);
    }
    Map<String, Object> complete = new LinkedHashMap<>(defaults);
    complete.putAll(envelope);
    try {
      if (!queue.offer(complete, offerTimeout.toNanos(), TimeUnit.NANOSECONDS)) {
        throw new QuarryClientException(
            "the HEC sender's buffer is full (the server is slower than the application)", null);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QuarryClientException("interrupted while queueing an event", e);
    }
  }

  /** Events the server acknowledged so far. */
  public long sentEvents() {
    return sent.get();
  }

  /**
   * Sends everything queued so far and waits until the server has it (durable; with ack mode,
   * confirmed through {@code /services/collector/ack}).
   *
   * @throws QuarryClientException when a batch was rejected for good
   */
  public void flush() {
    CompletableFuture<Void> done = new CompletableFuture<>();
    try {
      queue.put(done);
      done.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QuarryClientException("interrupted while flushing", e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new QuarryClientException("flush failed: " + e.getCause().getMessage(), e.getCause());
    }
    QuarryClientException failed = failure.getAndSet(null);
    if (failed != null) {
      throw failed;
    }
  }

  /** Flushes and stops the sender thread. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    try {
      flush();
    } finally {
      closed = true;
      sender.interrupt();
    }
  }

  private void run() {
    try {
      send();
    } finally {
      poster.close(); // the loop has ended: nothing is posted after it
    }
  }

  private void send() {
    List<Map<String, Object>> batch = new ArrayList<>();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    long batchStarted = 0;
    while (!closed || !queue.isEmpty()) {
      Object next;
      try {
        long waitNanos =
            batch.isEmpty()
                ? flushInterval.toNanos()
                : Math.max(0, batchStarted + flushInterval.toNanos() - System.nanoTime());
        next = queue.poll(waitNanos, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        if (closed) {
          return;
        }
        continue;
      }
      if (next instanceof CompletableFuture<?> flush) {
        @SuppressWarnings("unchecked")
        CompletableFuture<Void> done = (CompletableFuture<Void>) flush;
        flushes.add(done);
      } else if (next != null) {
        @SuppressWarnings("unchecked")
        Map<String, Object> envelope = (Map<String, Object>) next;
        if (batch.isEmpty()) {
          batchStarted = System.nanoTime();
        }
        batch.add(envelope);
        try {
          JSON.writeValue(body, envelope);
        } catch (IOException e) {
          failure.compareAndSet(
              null, new QuarryClientException("cannot encode an event: " + e.getMessage(), e));
          batch.remove(batch.size() - 1);
        }
      }
      boolean due =
          !batch.isEmpty()
              && (batch.size() >= batchEvents
                  || body.size() >= batchBytes
                  || !flushes.isEmpty()
                  || System.nanoTime() - batchStarted >= flushInterval.toNanos());
      if (due) {
        post(body.toByteArray(), batch.size());
        batch.clear();
        body.reset();
      }
      if (batch.isEmpty() && !flushes.isEmpty()) {
        flushes.forEach(done -> done.complete(null));
        flushes.clear();
      }
    }
  }

  /** Posts one batch, retrying what may succeed later; records a failure that will not. */
  private void post(byte[] json, int events) {
    try {
      poster.post(json);
      sent.addAndGet(events);
    } catch (QuarryClientException e) {
      failure.compareAndSet(null, e);
    } catch (IOException e) {
      failure.compareAndSet(null, new QuarryClientException("sending failed: " + e, e));
    } catch (InterruptedException e) {
      failure.compareAndSet(null, new QuarryClientException("interrupted while sending", e));
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      // never let the sender thread die: flush() would wait for it forever
      failure.compareAndSet(null, new QuarryClientException("sending failed: " + e, e));
    }
  }

  /** Configures a sender. */
  public static final class Builder {
    private final URI baseUri;
    private final String token;
    private final Map<String, String> defaults = new LinkedHashMap<>();
    private int batchEvents = 500;
    private int batchBytes = 1 << 20;
    private int maxBufferedEvents = 10_000;
    private Duration flushInterval = Duration.ofSeconds(1);
    private Duration offerTimeout = Duration.ofSeconds(5);
    private boolean gzip = true;
    private boolean ack;
    private javax.net.ssl.SSLContext sslContext;

    private Builder(URI baseUri, String token) {
      this.baseUri = requireNonNull(baseUri, "baseUri is null");
      this.token = requireNonNull(token, "token is null");
    }

    public Builder index(String index) {
      defaults.put("index", index);
      return this;
    }

    public Builder sourcetype(String sourcetype) {
      defaults.put("sourcetype", sourcetype);
      return this;
    }

    public Builder source(String source) {
      defaults.put("source", source);
      return this;
    }

    public Builder host(String host) {
      defaults.put("host", host);
      return this;
    }

    /** Events per request (default 500). */
    public Builder batchEvents(int events) {
      this.batchEvents = positive(events, "batchEvents");
      return this;
    }

    /** Uncompressed bytes per request before it is sent (default 1 MiB). */
    public Builder batchBytes(int bytes) {
      this.batchBytes = positive(bytes, "batchBytes");
      return this;
    }

    /** Events held before {@link HecSender#send} blocks (default 10,000). */
    public Builder maxBufferedEvents(int events) {
      this.maxBufferedEvents = positive(events, "maxBufferedEvents");
      return this;
    }

    /** The longest an event waits for its batch to fill (default 1 s). */
    public Builder flushInterval(Duration interval) {
      this.flushInterval = requireNonNull(interval, "interval is null");
      return this;
    }

    /** How long {@link HecSender#send} waits for room in a full buffer (default 5 s). */
    public Builder offerTimeout(Duration timeout) {
      this.offerTimeout = requireNonNull(timeout, "timeout is null");
      return this;
    }

    /** Gzip request bodies (default on). */
    public Builder gzip(boolean gzip) {
      this.gzip = gzip;
      return this;
    }

    /** Indexer acknowledgement: the token must have it on ({@code ack: true}). */
    public Builder ack(boolean ack) {
      this.ack = ack;
      return this;
    }

    /**
     * The TLS context for an {@code https://} server whose certificate the JDK's default trust
     * store does not know ({@link TlsTrust#trusting}).
     */
    public Builder sslContext(javax.net.ssl.SSLContext sslContext) {
      this.sslContext = sslContext;
      return this;
    }

    public HecSender build() {
      return new HecSender(this);
    }

    private static int positive(int value, String name) {
      if (value < 1) {
        throw new IllegalArgumentException(name + " must be at least 1");
      }
      return value;
    }
  }
}
