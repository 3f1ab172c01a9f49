package io.quarry.plugin.api.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/** Positions with several values: builders' position entries, value counts, indexes and sizes. */
class MultivalueBlockTest {

  /** A position as a test writes it: null, one value, or a list of values. */
  private static List<List<Object>> randomPositions(Random random, IntFunction<Object> value) {
    List<List<Object>> positions = new ArrayList<>();
    int size = random.nextInt(600);
    for (int p = 0; p < size; p++) {
      int kind = random.nextInt(6);
      List<Object> values = new ArrayList<>();
      int count = kind == 0 ? 0 : kind < 4 ? 1 : 2 + random.nextInt(5);
      for (int i = 0; i < count; i++) {
        values.add(value.apply(random.nextInt(1000)));
      }
      positions.add(values);
    }
    return positions;
  }

  /** Appends through the single-value methods where a position allows, entries otherwise. */
  private static void fill(
      List<List<Object>> positions,
      Random random,
      Runnable begin,
      Runnable end,
      Runnable appendNull,
      java.util.function.Consumer<Object> append) {
    for (List<Object> values : positions) {
      if (values.size() >= 2 || random.nextBoolean()) {
        begin.run();
        values.forEach(append);
        end.run(); // no values: a null
      } else if (values.isEmpty()) {
        appendNull.run();
      } else {
        append.accept(values.get(0));
      }
    }
  }

  /** Checks every reading of a block against the positions written. */
  private static void check(Block block, List<List<Object>> positions, long seed) {
    assertThat(block.positionCount()).as("seed %d", seed).isEqualTo(positions.size());
    boolean multivalued = positions.stream().anyMatch(v -> v.size() > 1);
    assertThat(block.mayHaveMultivaluedFields()).as("seed %d", seed).isEqualTo(multivalued);
    int total = 0;
    for (int p = 0; p < positions.size(); p++) {
      List<Object> expected = positions.get(p);
      total += expected.size();
      String where = "seed " + seed + " position " + p;
      assertThat(block.isNull(p)).as(where).isEqualTo(expected.isEmpty());
      assertThat(block.getValueCount(p)).as(where).isEqualTo(expected.size());
      assertThat(block.getValues(p)).as(where).isEqualTo(expected);
      assertThat(block.getObject(p))
          .as(where)
          .isEqualTo(expected.isEmpty() ? null : expected.get(0));
      int first = block.getFirstValueIndex(p);
      if (!multivalued) {
        assertThat(first).as(where).isEqualTo(p);
      }
      List<Object> read = new ArrayList<>();
      for (int i = first; i < first + block.getValueCount(p); i++) {
        read.add(valueAt(block, i));
      }
      assertThat(read).as(where).isEqualTo(expected);
      if (!expected.isEmpty()) {
        assertThat(firstByPosition(block, p)).as(where).isEqualTo(expected.get(0));
      }
    }
    assertThat(block.getTotalValueCount()).as("seed %d", seed).isEqualTo(total);
  }

  private static Object valueAt(Block block, int valueIndex) {
    return switch (block) {
      case LongBlock longs -> longs.getLongValue(valueIndex);
      case DoubleBlock doubles -> doubles.getDoubleValue(valueIndex);
      case BooleanBlock booleans -> booleans.getBooleanValue(valueIndex);
      case BytesBlock bytes -> bytes.getStringValue(valueIndex);
    };
  }

  private static Object firstByPosition(Block block, int position) {
    return switch (block) {
      case LongBlock longs -> longs.getLong(position);
      case DoubleBlock doubles -> doubles.getDouble(position);
      case BooleanBlock booleans -> booleans.getBoolean(position);
      case BytesBlock bytes -> bytes.getString(position);
    };
  }

  @Test
  void randomMultivaluesRoundTripInEveryBlockType() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 20; round++) {
      List<List<Object>> longs = randomPositions(random, i -> (long) i - 500);
      LongBlock.Builder longBuilder = LongBlock.builder(DataType.LONG, random.nextInt(4));
      fill(
          longs,
          random,
          longBuilder::beginPositionEntry,
          longBuilder::endPositionEntry,
          longBuilder::appendNull,
          v -> longBuilder.append((Long) v));
      check(longBuilder.build(), longs, seed);

      List<List<Object>> doubles = randomPositions(random, i -> i / 8.0);
      DoubleBlock.Builder doubleBuilder = DoubleBlock.builder(random.nextInt(4));
      fill(
          doubles,
          random,
          doubleBuilder::beginPositionEntry,
          doubleBuilder::endPositionEntry,
          doubleBuilder::appendNull,
          v -> doubleBuilder.append((Double) v));
      check(doubleBuilder.build(), doubles, seed);

      List<List<Object>> booleans = randomPositions(random, i -> i % 2 == 0);
      BooleanBlock.Builder booleanBuilder = BooleanBlock.builder(random.nextInt(4));
      fill(
          booleans,
          random,
          booleanBuilder::beginPositionEntry,
          booleanBuilder::endPositionEntry,
          booleanBuilder::appendNull,
          v -> booleanBuilder.append((Boolean) v));
      check(booleanBuilder.build(), booleans, seed);

      List<List<Object>> strings = randomPositions(random, i -> i % 7 == 0 ? "" : "v" + i + "é");
      BytesBlock.Builder bytesBuilder = BytesBlock.builder(random.nextInt(4));
      fill(
          strings,
          random,
          bytesBuilder::beginPositionEntry,
          bytesBuilder::endPositionEntry,
          bytesBuilder::appendNull,
          v -> bytesBuilder.append((String) v));
      check(bytesBuilder.build(), strings, seed);
    }
  }

  @Test
  void aBlockWithoutMultivaluesKeepsNoIndexAndReadsAsBefore() {
    LongBlock block =
        LongBlock.builder(DataType.LONG, 2)
            .append(7)
            .beginPositionEntry()
            .append(8)
            .endPositionEntry()
            .beginPositionEntry()
            .endPositionEntry()
            .appendNull()
            .build();
    assertThat(block.mayHaveMultivaluedFields()).isFalse();
    assertThat(block.positionCount()).isEqualTo(4);
    assertThat(block.getLong(1)).isEqualTo(8);
    assertThat(block.isNull(2)).isTrue();
    assertThat(block.getValueCount(3)).isZero();
    assertThat(block.getTotalValueCount()).isEqualTo(2);
    // four value slots (nulls take one) and a null mask word: no first-value index
    assertThat(block.ramBytesUsed()).isEqualTo(16 + 8 * 4 + 8);
  }

  @Test
  void theFirstValueIndexIsCountedInRamBytesUsed() {
    BytesBlock block =
        BytesBlock.builder(2)
            .append("GET")
            .beginPositionEntry()
            .append("GET")
            .append("POST")
            .endPositionEntry()
            .build();
    assertThat(block.mayHaveMultivaluedFields()).isTrue();
    assertThat(block.getObject(0)).isEqualTo("GET");
    assertThat(block.getValues(1)).isEqualTo(List.of("GET", "POST"));
    assertThat(block.getObject(1)).as("a position's first value").isEqualTo("GET");
    assertThat(block.getString(1)).as("a position's first value").isEqualTo("GET");
    assertThat(block.getLength(1)).isEqualTo(3);
    assertThat(block.getFirstValueIndex(1)).isEqualTo(1);
    assertThat(block.getValueLength(2)).isEqualTo(4);
    // bytes "GETGETPOST", 4 offsets, no null mask, first-value indexes of 2 positions + the end
    assertThat(block.ramBytesUsed()).isEqualTo(16 + 10 + 4 * 4 + (16 + 4 * 3));
    assertThatThrownBy(() -> block.getStringValue(3)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> block.getObject(2)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void multivaluesAfterManySinglePositionsIndexThemAll() {
    DoubleBlock.Builder builder = DoubleBlock.builder(1);
    for (int i = 0; i < 100; i++) {
      builder.append(i);
    }
    builder.beginPositionEntry().append(1.5).append(2.5).append(3.5).endPositionEntry();
    builder.append(-1);
    DoubleBlock block = builder.build();
    assertThat(block.positionCount()).isEqualTo(102);
    assertThat(block.getDouble(99)).isEqualTo(99.0);
    assertThat(block.getFirstValueIndex(100)).isEqualTo(100);
    assertThat(block.getValueCount(100)).isEqualTo(3);
    assertThat(block.getFirstValueIndex(101)).isEqualTo(103);
    assertThat(block.getDouble(101)).isEqualTo(-1.0);
    assertThat(block.getTotalValueCount()).isEqualTo(104);
  }

  @Test
  void positionEntriesAreUsedInPairs() {
    BooleanBlock.Builder builder = BooleanBlock.builder(1).beginPositionEntry();
    assertThatThrownBy(builder::beginPositionEntry).hasMessageContaining("already open");
    assertThatThrownBy(builder::appendNull).hasMessageContaining("a null inside a position entry");
    assertThatThrownBy(builder::build).hasMessageContaining("still open");
    builder.append(true).endPositionEntry();
    assertThatThrownBy(builder::endPositionEntry).hasMessageContaining("no position entry");
    assertThat(builder.build().getObject(0)).isEqualTo(true);
  }

  @Test
  void aFactoryReservesMultivalueBlocksWhole() {
    MemoryAccount account = MemoryAccount.unbounded("test");
    BlockFactory factory = new BlockFactory(account);
    LongBlock block =
        factory
            .newTimestampBlockBuilder(1)
            .beginPositionEntry()
            .append(1)
            .append(2)
            .endPositionEntry()
            .build();
    assertThat(block.dataType()).isEqualTo(DataType.TIMESTAMP);
    assertThat(account.used()).isEqualTo(block.ramBytesUsed()).isEqualTo(16 + 16 + (16 + 8));
    factory.release(block);
    assertThat(account.used()).isZero();
  }
}
