package io.quarry.client;

import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A request body that is a region of a byte array, published as views of it ({@link
 * ByteBuffer#wrap}) of at most {@link #SLICE} bytes, never copied. The JDK's {@code
 * BodyPublishers.ofByteArray} copies the whole body into fresh 16 KiB buffers first: for {@code
 * quarry ingest}'s 4 MiB chunks that was one more copy and allocation of every byte sent.
 *
 * <p>The array region must not change until the request is answered. Each subscription (a retry is
 * a new one) publishes the region from its start.
 */
final class ByteSlicePublisher implements HttpRequest.BodyPublisher {
  static final int SLICE = 256 * 1024;

  private final byte[] bytes;
  private final int offset;
  private final int length;

  ByteSlicePublisher(byte[] bytes, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    this.bytes = bytes;
    this.offset = offset;
    this.length = length;
  }

  @Override
  public long contentLength() {
    return length;
  }

  @Override
  public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
    subscriber.onSubscribe(new Slices(subscriber));
  }

  /**
   * One subscription: slices in order, as many as requested. Whoever raises the demand from zero
   * emits until it is used up; a request made meanwhile (also from inside {@code onNext}) only adds
   * to it, so slices go out one at a time and in order.
   */
  private final class Slices implements Flow.Subscription {
    private final Flow.Subscriber<? super ByteBuffer> subscriber;
    private final AtomicLong demand = new AtomicLong();
    private int next = offset; // read and written only by the emitting thread
    private volatile boolean stopped;

    Slices(Flow.Subscriber<? super ByteBuffer> subscriber) {
      this.subscriber = subscriber;
    }

    @Override
    public void request(long n) {
      if (stopped) {
        return;
      }
      if (n <= 0) {
        stopped = true;
        subscriber.onError(new IllegalArgumentException("non-positive request: " + n));
        return;
      }
      long before = demand.getAndAccumulate(n, (d, add) -> d + add < 0 ? Long.MAX_VALUE : d + add);
      if (before != 0) {
        return;
      }
      int end = offset + length;
      while (true) {
        long wanted = demand.get();
        long emitted = 0;
        while (emitted < wanted) {
          if (stopped) {
            return;
          }
          if (next == end) { // an empty body
            stopped = true;
            subscriber.onComplete();
            return;
          }
          int size = Math.min(SLICE, end - next);
          ByteBuffer slice = ByteBuffer.wrap(bytes, next, size).slice();
          next += size;
          emitted++;
          subscriber.onNext(slice);
          if (next == end && !stopped) {
            stopped = true; // the demand stays above zero: no later request emits again
            subscriber.onComplete();
            return;
          }
        }
        if (wanted != Long.MAX_VALUE && demand.addAndGet(-emitted) == 0) {
          return;
        }
      }
    }

    @Override
    public void cancel() {
      stopped = true;
    }
  }
}
