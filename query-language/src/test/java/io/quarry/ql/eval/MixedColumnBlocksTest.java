package io.quarry.ql.eval;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.ql.engine.BlockCopies;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A column whose page mixes numbers with text, or whole numbers past 2^53 with fractions, is
 * written as a string block whose numbers are tagged ({@code BytesBlock.isNumber}) and read back
 * per position as the values it was given (issue 21 §4–5, session 42): the number 4 beside "a" is
 * the number 4, 2^53 + 1 beside 0.5 keeps its last digit, and a filtered copy keeps the tags. Fails
 * without the tags: the column's numbers read back as texts, or 2^53 + 1 as 2^53.
 */
class MixedColumnBlocksTest {
  private static final long PAST_DOUBLE = 9_007_199_254_740_993L; // 2^53 + 1

  private static Block written(Object... values) {
    return ColumnBlocks.block("x", ArrayColumn.of(values, values.length));
  }

  @Test
  void numbersBesideTextReadBackAsNumbers() {
    Block block = written(4L, "a", null, 2.5, List.of(7L, "b"));
    assertThat(block).isInstanceOf(BytesBlock.class);
    BlockColumn column = new BlockColumn("x", block);
    assertThat(column.kind(0)).isEqualTo(ValueColumn.LONG);
    assertThat(column.getLong(0)).isEqualTo(4L);
    assertThat(column.get(0)).isEqualTo(4L);
    assertThat(column.kind(1)).isEqualTo(ValueColumn.TEXT);
    assertThat(column.get(1)).isEqualTo("a");
    assertThat(column.kind(2)).isEqualTo(ValueColumn.NULL);
    assertThat(column.kind(3)).isEqualTo(ValueColumn.DOUBLE);
    assertThat(column.getDouble(3)).isEqualTo(2.5);
    assertThat(column.get(4)).isEqualTo(List.of(7L, "b"));
    // a plugin reads the text, as before
    assertThat(block.getObject(0)).isEqualTo("4");
  }

  @Test
  void aTextThatLooksLikeANumberStaysText() {
    BlockColumn column = new BlockColumn("x", written("4", "a"));
    assertThat(column.kind(0)).isEqualTo(ValueColumn.TEXT);
    assertThat(column.get(0)).isEqualTo("4");
  }

  @Test
  void aWholeNumberPastTwoToThe53BesideAFractionKeepsEveryDigit() {
    Block block = written(PAST_DOUBLE, 0.5);
    assertThat(block.dataType()).isEqualTo(DataType.STRING);
    BlockColumn column = new BlockColumn("x", block);
    assertThat(column.kind(0)).isEqualTo(ValueColumn.LONG);
    assertThat(column.getLong(0)).isEqualTo(PAST_DOUBLE);
    assertThat(column.kind(1)).isEqualTo(ValueColumn.DOUBLE);
    assertThat(column.getDouble(1)).isEqualTo(0.5);
  }

  @Test
  void smallWholeNumbersBesideFractionsStayADoubleBlockAndAloneALongBlock() {
    assertThat(written(4L, 0.5)).isInstanceOf(DoubleBlock.class);
    assertThat(written(PAST_DOUBLE, 4L)).isInstanceOf(LongBlock.class);
    assertThat(written(-(1L << 53), 0.5)).isInstanceOf(DoubleBlock.class); // exact in a double
    assertThat(written(-(1L << 53) - 1, 0.5)).isInstanceOf(BytesBlock.class);
  }

  @Test
  void aFilteredCopyKeepsTheTagsAndIsReleasedOnce() {
    MemoryAccount account = MemoryAccount.unbounded("mixed");
    BlockFactory factory = new BlockFactory(account);
    Block block = written(4L, "a", PAST_DOUBLE, "b");
    Block copy = BlockCopies.take(factory, block, new int[] {2, 0, 1}, 3);
    assertThat(account.used()).isEqualTo(copy.ramBytesUsed());
    BlockColumn column = new BlockColumn("x", copy);
    assertThat(column.get(0)).isEqualTo(PAST_DOUBLE);
    assertThat(column.get(1)).isEqualTo(4L);
    assertThat(column.get(2)).isEqualTo("a");
    Block values = BlockCopies.takeValues(factory, block, new int[] {0, -1, 3}, 3);
    BlockColumn byValue = new BlockColumn("x", values);
    assertThat(byValue.get(0)).isEqualTo(4L);
    assertThat(byValue.kind(1)).isEqualTo(ValueColumn.NULL);
    assertThat(byValue.get(2)).isEqualTo("b");
    factory.release(copy);
    factory.release(values);
    assertThat(account.used()).isZero();
  }

  @Test
  void aBlockReadAndWrittenUnchangedKeepsItsTags() {
    Block block = written(4L, "a");
    assertThat(ColumnBlocks.block("y", new BlockColumn("x", block))).isSameAs(block);
  }
}
