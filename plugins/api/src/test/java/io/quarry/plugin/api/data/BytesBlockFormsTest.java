package io.quarry.plugin.api.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The three forms of a {@link BytesBlock} (plain, dictionary, constant) answer the {@link Block}
 * contract the same: the same positions written in each form read back identically through every
 * accessor, and each form's memory is reserved once and released once.
 */
class BytesBlockFormsTest {

  /** A form: builds a block of the given positions (each: no value, one, or several). */
  interface Form {
    BytesBlock build(BlockFactory factory, List<List<String>> positions);
  }

  static final Form PLAIN =
      (factory, positions) -> {
        BytesBlock.Builder builder = factory.newBytesBlockBuilder(positions.size());
        for (List<String> values : positions) {
          if (values.isEmpty()) {
            builder.appendNull();
          } else if (values.size() == 1) {
            builder.append(values.get(0));
          } else {
            builder.beginPositionEntry();
            values.forEach(builder::append);
            builder.endPositionEntry();
          }
        }
        return builder.build();
      };

  /** The distinct values in first-seen order as a dictionary (plus one entry no value uses). */
  static final Form DICTIONARY =
      (factory, positions) -> {
        Map<String, Integer> entries = new LinkedHashMap<>();
        entries.put("unused entry", 0);
        positions.forEach(values -> values.forEach(v -> entries.putIfAbsent(v, entries.size())));
        BytesBlock.Builder dictionary = BytesBlock.builder(entries.size());
        entries.keySet().forEach(dictionary::append);
        BytesBlock.OrdinalBuilder builder =
            factory.newOrdinalBytesBlockBuilder(dictionary.build(), positions.size());
        for (List<String> values : positions) {
          if (values.isEmpty()) {
            builder.appendNull();
          } else if (values.size() == 1) {
            builder.appendOrdinal(entries.get(values.get(0)));
          } else {
            builder.beginPositionEntry();
            values.forEach(v -> builder.appendOrdinal(entries.get(v)));
            builder.endPositionEntry();
          }
        }
        return builder.build();
      };

  static Stream<Arguments> forms() {
    return Stream.of(Arguments.of("plain", PLAIN), Arguments.of("dictionary", DICTIONARY));
  }

  private static List<List<String>> randomPositions(Random random, boolean multivalues) {
    List<List<String>> positions = new ArrayList<>();
    int size = random.nextInt(300);
    for (int p = 0; p < size; p++) {
      int kind = random.nextInt(6);
      int count = kind == 0 ? 0 : kind < 4 || !multivalues ? 1 : 2 + random.nextInt(4);
      List<String> values = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        values.add(random.nextInt(5) == 0 ? "" : "v" + random.nextInt(12) + "é");
      }
      positions.add(values);
    }
    return positions;
  }

  /** Every accessor of {@code block} against the positions it was written from. */
  private static void assertReads(BytesBlock block, List<List<String>> positions) {
    assertThat(block.positionCount()).isEqualTo(positions.size());
    assertThat(block.dataType()).isEqualTo(DataType.STRING);
    int total = 0;
    boolean multivalued = false;
    ByteSlice slice = new ByteSlice();
    for (int p = 0; p < positions.size(); p++) {
      List<String> values = positions.get(p);
      total += values.size();
      multivalued |= values.size() > 1;
      assertThat(block.isNull(p)).as("isNull(%d)", p).isEqualTo(values.isEmpty());
      assertThat(block.getValueCount(p)).as("getValueCount(%d)", p).isEqualTo(values.size());
      assertThat(block.getValues(p)).as("getValues(%d)", p).isEqualTo(List.copyOf(values));
      assertThat(block.getObject(p))
          .as("getObject(%d)", p)
          .isEqualTo(values.isEmpty() ? null : values.get(0));
      if (!values.isEmpty()) {
        byte[] first = values.get(0).getBytes(StandardCharsets.UTF_8);
        assertThat(block.getString(p)).isEqualTo(values.get(0));
        assertThat(block.getLength(p)).isEqualTo(first.length);
        int index = block.getFirstValueIndex(p);
        for (int i = 0; i < values.size(); i++) {
          byte[] utf8 = values.get(i).getBytes(StandardCharsets.UTF_8);
          assertThat(block.getStringValue(index + i)).isEqualTo(values.get(i));
          assertThat(block.getValueLength(index + i)).isEqualTo(utf8.length);
          block.getBytes(index + i, slice);
          byte[] read = new byte[slice.length()];
          System.arraycopy(slice.bytes(), slice.offset(), read, 0, slice.length());
          assertThat(read).isEqualTo(utf8);
        }
      } else {
        assertThat(block.getString(p)).isEmpty();
        assertThat(block.getLength(p)).isZero();
      }
    }
    assertThat(block.getTotalValueCount()).isEqualTo(total);
    assertThat(block.mayHaveMultivaluedFields()).isEqualTo(multivalued);
    assertThatThrownBy(() -> block.isNull(positions.size()))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forms")
  void everyFormReadsAsItWasWritten(String name, Form form) {
    Random random = new Random(name.hashCode());
    for (int round = 0; round < 50; round++) {
      List<List<String>> positions = randomPositions(random, round % 2 == 0);
      MemoryAccount account = new MemoryAccount("test", 1L << 30);
      BlockFactory factory = new BlockFactory(account);
      BytesBlock block = form.build(factory, positions);
      assertReads(block, positions);
      assertThat(account.used()).isEqualTo(block.ramBytesUsed());
      factory.release(block);
      assertThat(account.used()).isZero();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forms")
  void aConstantReadsAsTheSameValueWrittenAtEveryPosition(String name, Form form) {
    for (int size : new int[] {0, 1, 7, 1000}) {
      for (String value : new String[] {"", "GET", "žluť"}) {
        List<List<String>> positions = new ArrayList<>();
        for (int p = 0; p < size; p++) {
          positions.add(List.of(value));
        }
        MemoryAccount account = new MemoryAccount("test", 1L << 30);
        BlockFactory factory = new BlockFactory(account);
        BytesBlock constant = factory.newConstantBytesBlock(value, size);
        assertThat(constant.isConstant()).isTrue();
        assertReads(constant, positions);
        assertReads(
            form.build(new BlockFactory(new MemoryAccount("x", 1L << 30)), positions), positions);
        assertThat(constant.dictionary().positionCount()).isEqualTo(1);
        if (size > 0) {
          assertThat(constant.getOrdinal(size - 1)).isZero();
        }
        assertThat(account.used()).isEqualTo(constant.ramBytesUsed());
        factory.release(constant);
        assertThat(account.used()).isZero();
      }
    }
    // its memory does not grow with its positions
    assertThat(BytesBlock.constant("x", 1_000_000).ramBytesUsed())
        .isEqualTo(BytesBlock.constant("x", 1).ramBytesUsed());
  }

  @Test
  void aDictionaryBlockNamesItsOrdinals() {
    BytesBlock dictionary = BytesBlock.builder(2).append("a").append("b").build();
    BytesBlock block =
        BytesBlock.ordinalBuilder(dictionary, 4)
            .appendOrdinal(1)
            .appendNull()
            .appendOrdinal(0)
            .appendOrdinal(1)
            .build();
    assertThat(block.dictionary()).isSameAs(dictionary);
    assertThat(block.isConstant()).isFalse();
    assertThat(block.getOrdinal(0)).isEqualTo(1);
    assertThat(block.getOrdinal(1)).isEqualTo(-1);
    assertThat(block.getOrdinal(3)).isEqualTo(1);
    assertThat(dictionary.dictionary()).isNull();
    assertThatThrownBy(() -> dictionary.getOrdinal(0)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aDictionaryIsPlainWithOneValuePerPositionAndNoNulls() {
    BytesBlock withNull = BytesBlock.builder(2).append("a").appendNull().build();
    assertThatThrownBy(() -> BytesBlock.ordinalBuilder(withNull, 1))
        .isInstanceOf(IllegalArgumentException.class);
    BytesBlock multivalued =
        BytesBlock.builder(1)
            .beginPositionEntry()
            .append("a")
            .append("b")
            .endPositionEntry()
            .build();
    assertThatThrownBy(() -> BytesBlock.ordinalBuilder(multivalued, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> BytesBlock.ordinalBuilder(BytesBlock.constant("a", 3), 1))
        .isInstanceOf(IllegalArgumentException.class);
    BytesBlock dictionary = BytesBlock.builder(1).append("a").build();
    assertThatThrownBy(() -> BytesBlock.ordinalBuilder(dictionary, 1).appendOrdinal(1))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }
}
