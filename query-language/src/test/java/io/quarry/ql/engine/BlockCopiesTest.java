package io.quarry.ql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.BooleanBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.MemoryAccount;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The copies of the long, double and boolean blocks (generated per type, {@code
 * GeneratedCopiesTest}): positions repeated and reordered with nulls and multivalues kept, values
 * by index with {@code -1} a null, a timestamp block's copy still a timestamp block, each reserved.
 */
class BlockCopiesTest {
  private final MemoryAccount account = MemoryAccount.unbounded("copies");
  private final BlockFactory factory = new BlockFactory(account);

  @Test
  void takeKeepsNullsAndMultivaluesOfEachType() {
    LongBlock longs =
        factory
            .newTimestampBlockBuilder(3)
            .append(7)
            .appendNull()
            .beginPositionEntry()
            .append(1)
            .append(2)
            .endPositionEntry()
            .build();
    DoubleBlock doubles =
        factory
            .newDoubleBlockBuilder(3)
            .append(0.5)
            .appendNull()
            .beginPositionEntry()
            .append(1.5)
            .append(-2)
            .endPositionEntry()
            .build();
    BooleanBlock booleans =
        factory
            .newBooleanBlockBuilder(3)
            .append(true)
            .appendNull()
            .beginPositionEntry()
            .append(false)
            .append(true)
            .endPositionEntry()
            .build();
    int[] positions = {2, 0, 1, 2};

    Block longCopy = BlockCopies.take(factory, longs, positions, 4);
    assertThat(longCopy.dataType()).isEqualTo(DataType.TIMESTAMP);
    assertThat(valuesOf(longCopy))
        .containsExactly(List.of(1L, 2L), List.of(7L), List.of(), List.of(1L, 2L));
    assertThat(valuesOf(BlockCopies.take(factory, doubles, positions, 4)))
        .containsExactly(List.of(1.5, -2.0), List.of(0.5), List.of(), List.of(1.5, -2.0));
    Block booleanCopy = BlockCopies.take(factory, booleans, positions, 4);
    assertThat(valuesOf(booleanCopy))
        .containsExactly(List.of(false, true), List.of(true), List.of(), List.of(false, true));
    assertThat(booleanCopy.isNull(2)).isTrue();
    assertThat(booleanCopy.mayHaveMultivaluedFields()).isTrue();
  }

  @Test
  void takeValuesMakesOneValuePerPositionAndANullForMinusOne() {
    LongBlock longs =
        factory
            .newLongBlockBuilder(2)
            .beginPositionEntry()
            .append(4)
            .append(5)
            .endPositionEntry()
            .append(6)
            .build();
    DoubleBlock doubles = factory.newDoubleBlockBuilder(2).append(2.5).append(3.5).build();
    BooleanBlock booleans = factory.newBooleanBlockBuilder(2).append(true).append(false).build();
    int[] valueIndexes = {1, -1, 0};

    Block longCopy = BlockCopies.takeValues(factory, longs, valueIndexes, 3);
    assertThat(longCopy.dataType()).isEqualTo(DataType.LONG);
    assertThat(valuesOf(longCopy)).containsExactly(List.of(5L), List.of(), List.of(4L));
    assertThat(longCopy.mayHaveMultivaluedFields()).isFalse();
    assertThat(valuesOf(BlockCopies.takeValues(factory, doubles, valueIndexes, 3)))
        .containsExactly(List.of(3.5), List.of(), List.of(2.5));
    assertThat(valuesOf(BlockCopies.takeValues(factory, booleans, valueIndexes, 3)))
        .containsExactly(List.of(false), List.of(), List.of(true));
  }

  @Test
  void aCopyIsReservedAgainstTheFactorysAccount() {
    DoubleBlock doubles = factory.newDoubleBlockBuilder(2).append(1).append(2).build();
    long before = account.used();
    Block copy = BlockCopies.take(factory, doubles, new int[] {1, 1, 0}, 3);
    assertThat(account.used() - before).isEqualTo(copy.ramBytesUsed());
    factory.release(copy);
    assertThat(account.used()).isEqualTo(before);
  }

  private static List<List<Object>> valuesOf(Block block) {
    List<List<Object>> values = new ArrayList<>();
    for (int p = 0; p < block.positionCount(); p++) {
      values.add(block.getValues(p));
    }
    return values;
  }
}
