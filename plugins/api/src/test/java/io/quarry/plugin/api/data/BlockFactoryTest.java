package io.quarry.plugin.api.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class BlockFactoryTest {
  @Test
  void blocksAreReservedWhenBuiltAndReleasedByTheirOwner() {
    MemoryAccount account = MemoryAccount.unbounded("test");
    BlockFactory factory = new BlockFactory(account);
    LongBlock longs = factory.newLongBlockBuilder(4).append(1).appendNullable(null).build();
    assertThat(account.used()).isEqualTo(longs.ramBytesUsed()).isPositive();
    BytesBlock text = factory.newBytesBlockBuilder(2).append("a").appendNullable(null).build();
    Page page =
        new Page(
            new Schema(
                List.of(
                    new Schema.Column("n", DataType.LONG),
                    new Schema.Column("s", DataType.STRING))),
            List.of(longs, text));
    BytesBlock replacement = factory.newBytesBlockBuilder(2).append("b").append("c").build();
    Page replaced = factory.withColumn(page, "s", replacement);
    assertThat(replaced.block("s")).isSameAs(replacement);
    assertThat(account.used()).isEqualTo(longs.ramBytesUsed() + replacement.ramBytesUsed());
    factory.release(replaced);
    assertThat(account.used()).isZero();
    assertThat(account.peak()).isPositive();
  }

  @Test
  void aReservationOverTheLimitFailsAndReservesNothing() {
    MemoryAccount account = new MemoryAccount("search 7", 1000);
    BlockFactory factory = new BlockFactory(account);
    factory.reserve(600, "stats");
    assertThatThrownBy(() -> factory.reserve(500, "anomalydetection"))
        .isInstanceOf(MemoryLimitExceededException.class)
        .hasMessage(
            "search 7: anomalydetection needs 500 more bytes but 600 of the limit of 1000 are in use");
    assertThat(account.used()).isEqualTo(600);
    LongBlock.Builder big = factory.newLongBlockBuilder(100);
    for (int i = 0; i < 100; i++) {
      big.append(i); // 800 bytes of values: over what is left
    }
    assertThatThrownBy(big::build).isInstanceOf(MemoryLimitExceededException.class);
    assertThat(account.used()).isEqualTo(600);
  }
}
