package io.quarry.plugin.api.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A string block's values tagged as numbers written as their text (SPI 1.6, {@link
 * BytesBlock#isNumber}): a tag per value slot, kept through the plain and dictionary forms, read as
 * text by every other accessor (what a plugin sees is unchanged), and counted in the block's
 * memory, which a factory reserves once and releases once.
 */
class BytesBlockNumbersTest {

  @Test
  void numbersAreTaggedPerValueAndReadAsTheirText() {
    BytesBlock block =
        BytesBlock.builder(5)
            .appendNumber("4")
            .append("a")
            .appendNull()
            .beginPositionEntry()
            .append("b")
            .appendNumber("2.5")
            .endPositionEntry()
            .appendNumber("9007199254740993")
            .build();
    assertThat(block.mayHaveNumbers()).isTrue();
    assertThat(block.isNumber(0)).isTrue();
    assertThat(block.isNumber(1)).isFalse();
    assertThat(block.isNumber(2)).as("a null's slot").isFalse();
    int mv = block.getFirstValueIndex(3);
    assertThat(block.isNumber(mv)).isFalse();
    assertThat(block.isNumber(mv + 1)).isTrue();
    assertThat(block.isNumber(block.getFirstValueIndex(4))).isTrue();
    // what a plugin reads: the texts, as before SPI 1.6
    assertThat(block.getObject(0)).isEqualTo("4");
    assertThat(block.getValues(3)).isEqualTo(List.of("b", "2.5"));
    assertThat(block.getString(4)).isEqualTo("9007199254740993");
    assertThat(block.dataType()).isEqualTo(DataType.STRING);
    assertThatThrownBy(() -> block.isNumber(block.getTotalValueCount() + 1))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void aDoubleIsANumberTaggedAsADoubleEvenWhenItsTextIsWhole() {
    BytesBlock block =
        BytesBlock.builder(4)
            .appendDouble("9007199254740992")
            .appendNumber("9007199254740992")
            .append("a")
            .appendDouble("2.5")
            .build();
    assertThat(block.isNumber(0)).isTrue();
    assertThat(block.isDouble(0)).as("a whole double").isTrue();
    assertThat(block.isNumber(1)).isTrue();
    assertThat(block.isDouble(1)).as("a long").isFalse();
    assertThat(block.isDouble(2)).as("a text").isFalse();
    assertThat(block.isDouble(3)).isTrue();
    assertThat(block.getString(0)).isEqualTo("9007199254740992");
    BytesBlock longsOnly = BytesBlock.builder(2).appendNumber("1").appendNumber("2").build();
    BytesBlock withADouble = BytesBlock.builder(2).appendNumber("1").appendDouble("2").build();
    assertThat(withADouble.ramBytesUsed())
        .as("the doubles' mask is counted")
        .isGreaterThan(longsOnly.ramBytesUsed());
    assertThatThrownBy(() -> block.isDouble(4)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void aDictionaryBlockReadsItsEntriesDoubleTags() {
    BytesBlock dictionary =
        BytesBlock.builder(3).append("a").appendNumber("10").appendDouble("10").build();
    BytesBlock block =
        BytesBlock.ordinalBuilder(dictionary, 4)
            .appendOrdinal(2)
            .appendNull()
            .appendOrdinal(1)
            .appendOrdinal(0)
            .build();
    assertThat(block.isDouble(0)).isTrue();
    assertThat(block.isDouble(1)).as("a null's slot").isFalse();
    assertThat(block.isDouble(2)).isFalse();
    assertThat(block.isNumber(2)).isTrue();
    assertThat(block.isDouble(3)).isFalse();
  }

  @Test
  void aBlockWithoutNumbersSaysSoAndCostsNothingMore() {
    BytesBlock plain = BytesBlock.builder(2).append("4").append("a").build();
    assertThat(plain.mayHaveNumbers()).isFalse();
    assertThat(plain.isNumber(0)).as("the text \"4\" is no number").isFalse();
    BytesBlock tagged = BytesBlock.builder(2).appendNumber("4").append("a").build();
    assertThat(tagged.ramBytesUsed()).isGreaterThan(plain.ramBytesUsed());
    assertThat(BytesBlock.constant("4", 3).mayHaveNumbers()).isFalse();
  }

  @Test
  void aDictionaryBlockReadsItsEntriesTags() {
    BytesBlock dictionary = BytesBlock.builder(2).append("a").appendNumber("10").build();
    BytesBlock block =
        BytesBlock.ordinalBuilder(dictionary, 4)
            .appendOrdinal(1)
            .appendNull()
            .appendOrdinal(0)
            .appendOrdinal(1)
            .build();
    assertThat(block.mayHaveNumbers()).isTrue();
    assertThat(block.isNumber(0)).isTrue();
    assertThat(block.isNumber(1)).as("a null's slot").isFalse();
    assertThat(block.isNumber(2)).isFalse();
    assertThat(block.isNumber(3)).isTrue();
    assertThat(block.getString(3)).isEqualTo("10");
  }

  @Test
  void aFactoryReservesATaggedBlockOnceAndReleasesItOnce() {
    Random random = new Random(42);
    for (int round = 0; round < 50; round++) {
      MemoryAccount account = new MemoryAccount("test", 1L << 30);
      BlockFactory factory = new BlockFactory(account);
      BytesBlock.Builder builder = factory.newBytesBlockBuilder(8);
      int size = random.nextInt(3000);
      boolean[] numbers = new boolean[size];
      boolean[] doubles = new boolean[size];
      for (int p = 0; p < size; p++) {
        switch (random.nextInt(4)) {
          case 0 -> builder.appendNull();
          case 1 -> {
            builder.appendNumber(Long.toString(random.nextLong()));
            numbers[p] = true;
          }
          case 2 -> {
            builder.appendDouble(Double.toString(random.nextDouble()));
            numbers[p] = true;
            doubles[p] = true;
          }
          default -> builder.append("text " + p);
        }
      }
      BytesBlock block = builder.build();
      assertThat(account.used()).isEqualTo(block.ramBytesUsed());
      for (int p = 0; p < size; p++) {
        assertThat(block.isNumber(p)).as("position %d", p).isEqualTo(numbers[p]);
        assertThat(block.isDouble(p)).as("position %d", p).isEqualTo(doubles[p]);
      }
      factory.release(block);
      assertThat(account.used()).isZero();
    }
  }

  @Test
  void aTaggedBlockOverTheLimitReservesNothing() {
    MemoryAccount account = new MemoryAccount("test", 64);
    BlockFactory factory = new BlockFactory(account);
    BytesBlock.Builder builder = factory.newBytesBlockBuilder(100);
    for (int p = 0; p < 100; p++) {
      if (p % 2 == 0) {
        builder.appendNumber(Integer.toString(p));
      } else {
        builder.appendDouble(Integer.toString(p));
      }
    }
    assertThatThrownBy(builder::build).isInstanceOf(MemoryLimitExceededException.class);
    assertThat(account.used()).isZero();
  }
}
