package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.ql.exec.SearchResources;
import org.junit.jupiter.api.Test;

/**
 * A segment's whole dictionary block is charged while a slice holds it and given back when the last
 * lets it go, so a search's segments read one after another are charged one at a time; a block that
 * would take more than half of what the limit leaves free is refused (null: per-page dictionaries),
 * never an error. Each dictionary: {@value #VALUES} texts of 40 characters, its texts charged
 * {@value #VALUES} × 104 bytes; the limit {@value #LIMIT} bytes fits one such block, not two.
 */
class SegmentDictionaryBlocksTest {
  private static final int VALUES = 1_000;
  private static final long LIMIT = 500_000;

  private final MemoryAccount account = new MemoryAccount("search", LIMIT);
  private final SegmentDictionaryBlocks blocks =
      new SegmentDictionaryBlocks(
          new SearchResources(account, () -> false, w -> {}).tracker("stats"));

  private static String[] dictionary(char segment) {
    String[] texts = new String[VALUES];
    for (int i = 0; i < VALUES; i++) {
      texts[i] = segment + "-%038d".formatted(i);
    }
    return texts;
  }

  @Test
  void aSegmentLetGoByItsLastSliceGivesBackItsCharge() {
    String[] first = dictionary('a');
    BytesBlock block = blocks.hold(first);
    assertThat(block).isNotNull();
    assertThat(block.positionCount()).isEqualTo(VALUES);
    assertThat(block.getStringValue(7)).isEqualTo(first[7]);
    long one = account.used();
    assertThat(one).isGreaterThanOrEqualTo(VALUES * 104L);
    assertThat(blocks.hold(first)).as("a second slice shares it").isSameAs(block);
    assertThat(account.used()).isEqualTo(one);
    blocks.letGo(first);
    assertThat(account.used()).as("one slice still holds it").isEqualTo(one);
    blocks.letGo(first);
    assertThat(account.used()).isZero();
    // the next segments, one after another, each fit
    for (char segment = 'b'; segment <= 'e'; segment++) {
      String[] next = dictionary(segment);
      assertThat(blocks.hold(next)).as("segment %s", segment).isNotNull();
      blocks.letGo(next);
    }
    assertThat(account.used()).isZero();
  }

  @Test
  void aBlockOverHalfOfWhatIsFreeIsRefusedNotAnError() {
    String[] first = dictionary('a');
    String[] second = dictionary('b');
    assertThat(blocks.hold(first)).isNotNull();
    long one = account.used();
    assertThat(blocks.hold(second)).as("both held would leave the groups too little").isNull();
    assertThat(account.used()).isEqualTo(one);
    blocks.letGo(first);
    assertThat(blocks.hold(second))
        .as("refused once: per-page for the rest of the search")
        .isNull();
    blocks.release();
    assertThat(account.used()).isZero();
  }

  @Test
  void releaseGivesBackWhatSlicesThatFailedStillHeld() {
    assertThat(blocks.hold(dictionary('a'))).isNotNull();
    assertThat(account.used()).isPositive();
    blocks.release();
    assertThat(account.used()).isZero();
  }

  /**
   * Every slice of a segment let its block go while a partial still keeps groups by its entries
   * (holding it as shared, as {@code EntryPartial} does): the segment's next slice gets that same
   * block back — a new one would make the partial hand its groups over by text mid-scan — charged
   * again; once nothing holds it, nothing is charged.
   */
  @Test
  void aBlockStillHeldByAPartialIsTakenAgain() {
    String[] first = dictionary('a');
    BytesBlock block = blocks.hold(first);
    account.reserveShared(block, block.ramBytesUsed(), "partial"); // a partial's hold
    blocks.letGo(first);
    long partial = account.used();
    assertThat(partial).isPositive();
    assertThat(blocks.hold(first)).as("the next slice of the segment").isSameAs(block);
    assertThat(blocks.blocksTakenAgain()).isEqualTo(1);
    assertThat(account.used()).isGreaterThan(partial);
    blocks.letGo(first);
    account.releaseShared(block, block.ramBytesUsed());
    assertThat(account.used()).isZero();
  }

  /**
   * A block let go while a partial still holds it is taken again even when what is free is less
   * than the four times its texts a new block must leave: it is charged already (the partial's
   * hold), so refusing it only made the partial hand its groups over by text mid-scan — and the
   * segment per-page for the rest of the search. A new block of another segment is still refused.
   */
  @Test
  void aBlockStillHeldIsTakenAgainWhenLittleIsFree() {
    String[] first = dictionary('a');
    BytesBlock block = blocks.hold(first);
    account.reserveShared(block, block.ramBytesUsed(), "partial"); // a partial's hold
    blocks.letGo(first);
    long textBytes = VALUES * (SegmentDictionaryBlocks.TEXT_OVERHEAD_BYTES + 40L);
    long others = LIMIT - account.used() - 2 * textBytes; // the groups took the rest but 2×
    account.reserve(others, "groups");
    assertThat(4 * textBytes).isGreaterThan(LIMIT - account.used());
    assertThat(blocks.hold(first)).as("the next slice of the segment").isSameAs(block);
    assertThat(blocks.blocksTakenAgain()).isEqualTo(1);
    assertThat(blocks.hold(dictionary('b'))).as("a new block: too little free").isNull();
    blocks.letGo(first);
    account.releaseShared(block, block.ramBytesUsed());
    account.release(others);
    assertThat(account.used()).isZero();
  }
}
