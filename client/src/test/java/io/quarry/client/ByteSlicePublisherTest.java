package io.quarry.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.Test;

/**
 * {@link ByteSlicePublisher}: the region's bytes in order, in slices viewing the array, once per
 * subscription, however the subscriber asks for them (one at a time from inside {@code onNext}, in
 * batches, or all at once).
 */
class ByteSlicePublisherTest {
  @Test
  void publishesTheRegionInOrderWhateverTheDemand() {
    Random random = new Random(3);
    byte[] bytes = new byte[3 * ByteSlicePublisher.SLICE + 1234];
    random.nextBytes(bytes);
    int[][] regions = {
      {0, bytes.length},
      {17, ByteSlicePublisher.SLICE},
      {5, 2 * ByteSlicePublisher.SLICE + 1},
      {100, 0},
      {bytes.length - 3, 3}
    };
    for (int[] region : regions) {
      ByteSlicePublisher publisher = new ByteSlicePublisher(bytes, region[0], region[1]);
      assertThat(publisher.contentLength()).isEqualTo(region[1]);
      byte[] expected = Arrays.copyOfRange(bytes, region[0], region[0] + region[1]);
      for (long batch : new long[] {1, 2, Long.MAX_VALUE}) {
        // twice: a retried request subscribes again and must get the whole region again
        for (int subscription = 0; subscription < 2; subscription++) {
          Collector collector = new Collector(batch);
          publisher.subscribe(collector);
          assertThat(collector.completions).isEqualTo(1);
          assertThat(collector.error).isNull();
          assertThat(collector.bytes.toByteArray()).isEqualTo(expected);
          assertThat(collector.slices).allMatch(size -> size <= ByteSlicePublisher.SLICE);
        }
      }
    }
  }

  @Test
  void aCancelledSubscriptionStopsPublishing() {
    byte[] bytes = new byte[4 * ByteSlicePublisher.SLICE];
    Collector collector = new Collector(1);
    collector.cancelAfter = 2;
    new ByteSlicePublisher(bytes, 0, bytes.length).subscribe(collector);
    assertThat(collector.slices).hasSize(2);
    assertThat(collector.completions).isZero();
  }

  /** Asks for {@code batch} slices at a time, the next batch from inside the last one's onNext. */
  private static final class Collector implements Flow.Subscriber<ByteBuffer> {
    final long batch;
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final List<Integer> slices = new ArrayList<>();
    int completions;
    Throwable error;
    int cancelAfter = Integer.MAX_VALUE;
    private Flow.Subscription subscription;
    private long left;

    Collector(long batch) {
      this.batch = batch;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      this.subscription = subscription;
      left = batch;
      subscription.request(batch);
    }

    @Override
    public void onNext(ByteBuffer item) {
      slices.add(item.remaining());
      byte[] copy = new byte[item.remaining()];
      item.get(copy);
      bytes.writeBytes(copy);
      if (slices.size() == cancelAfter) {
        subscription.cancel();
        return;
      }
      if (batch != Long.MAX_VALUE && --left == 0) {
        left = batch;
        subscription.request(batch);
      }
    }

    @Override
    public void onError(Throwable throwable) {
      error = throwable;
    }

    @Override
    public void onComplete() {
      completions++;
    }
  }
}
