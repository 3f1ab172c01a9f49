package io.quarry.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The arrays HEC {@code /raw} copies bodies into: taken again once given back, and bounded. */
class BodyArraysTest {
  @Test
  void anArrayGivenBackTakesTheNextBodyItHolds() {
    BodyArrays arrays = new BodyArrays();
    byte[] first = arrays.take(4_000_000);
    assertThat(first.length).isGreaterThanOrEqualTo(4_000_000).isEqualTo(4 << 20);
    arrays.giveBack(first);
    // a body of about the same size (cut at another line end) takes the same array
    assertThat(arrays.take(4_100_000)).isSameAs(first);
    // while it is taken, another body gets an array of its own
    assertThat(arrays.take(10)).isNotSameAs(first);
  }

  @Test
  void aLongerBodyGetsANewArrayAndTheShortOneStaysKept() {
    BodyArrays arrays = new BodyArrays();
    byte[] small = arrays.take(1_000);
    arrays.giveBack(small);
    byte[] large = arrays.take(1_000_000);
    assertThat(large).isNotSameAs(small);
    assertThat(large.length).isGreaterThanOrEqualTo(1_000_000);
    assertThat(arrays.keptCount()).isEqualTo(1);
    assertThat(arrays.take(500)).isSameAs(small);
  }

  @Test
  void atMostKeptArraysOfAtMostKeptBytesAreKept() {
    BodyArrays arrays = new BodyArrays();
    byte[] huge = arrays.take(BodyArrays.KEPT_BYTES + 1);
    assertThat(huge.length).isEqualTo(BodyArrays.KEPT_BYTES + 1);
    arrays.giveBack(huge);
    assertThat(arrays.keptCount()).isZero();
    for (int i = 0; i < BodyArrays.KEPT + 3; i++) {
      arrays.giveBack(new byte[BodyArrays.STEP]);
    }
    assertThat(arrays.keptCount()).isEqualTo(BodyArrays.KEPT);
  }
}
