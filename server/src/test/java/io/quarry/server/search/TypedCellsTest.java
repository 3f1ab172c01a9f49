package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link TypedCells} types a page's column once, over the positions the filter keeps: a JSON number
 * kept with a dropped text is a number, kept with a kept text text; no column where none of the
 * kept cells was typed; a page never sees the typed cells of the pages before it (its arrays are
 * reused). The page's texts are what {@link EventColumn} appends for the same values.
 */
class TypedCellsTest {
  private static final int PAGE = 8;

  /** Fills a page: each cell's values kept, and appended as their texts as {@link EventColumn}. */
  private static BytesBlock page(TypedCells cells, List<List<?>> values) {
    BytesBlock.Builder texts = BytesBlock.builder(values.size());
    for (int position = 0; position < values.size(); position++) {
      List<?> cell = values.get(position);
      cells.keep(position, cell);
      if (cell.isEmpty()) {
        texts.appendNull();
      } else if (cell.size() == 1) {
        texts.append(String.valueOf(cell.get(0)));
      } else {
        texts.beginPositionEntry();
        cell.forEach(v -> texts.append(String.valueOf(v)));
        texts.endPositionEntry();
      }
    }
    BytesBlock built = texts.build();
    cells.built(built);
    return built;
  }

  private static List<List<Object>> values(Block block) {
    List<List<Object>> values = new ArrayList<>();
    for (int p = 0; p < block.positionCount(); p++) {
      values.add(block.getValues(p));
    }
    return values;
  }

  @Test
  void aColumnIsTypedOverTheKeptPositionsOnly() {
    TypedCells cells = new TypedCells("id", PAGE);
    page(cells, List.of(List.of(10L), List.of("x2"), List.of(9L), List.of()));
    Block kept = cells.typed(new int[] {0, 2, 3}, 3);
    assertThat(kept.dataType()).isEqualTo(DataType.LONG);
    assertThat(values(kept)).containsExactly(List.of(10L), List.of(9L), List.of());
    Block all = cells.typed(null, 4); // nothing dropped: the text x2 makes the column text
    assertThat(all.dataType()).isEqualTo(DataType.STRING);
    assertThat(values(all)).containsExactly(List.of("10"), List.of("x2"), List.of("9"), List.of());
  }

  @Test
  void numbersAndTheirTextsTypeAsPageBuilderDoes() {
    TypedCells cells = new TypedCells("f", PAGE);
    page(cells, List.of(List.of(2.5), List.of("7"), List.of(10L, 9L), List.of(true)));
    // a number's text is text: kept with the double, a string column
    assertThat(cells.typed(new int[] {0, 1}, 2).dataType()).isEqualTo(DataType.STRING);
    Block numbers = cells.typed(new int[] {0, 2}, 2); // a long and a double: a double column
    assertThat(numbers.dataType()).isEqualTo(DataType.DOUBLE);
    assertThat(values(numbers)).containsExactly(List.of(2.5), List.of(10.0, 9.0));
    assertThat(cells.typed(new int[] {3}, 1).dataType()).isEqualTo(DataType.BOOLEAN);
    assertThat(cells.typed(new int[] {0, 3}, 2).dataType()).isEqualTo(DataType.STRING);
  }

  @Test
  void noColumnWhereNoKeptCellWasTyped() {
    TypedCells cells = new TypedCells("id", PAGE);
    page(cells, List.of(List.of("1"), List.of("2")));
    assertThat(cells.typed(null, 2)).isNull();
    page(cells, List.of(List.of("1"), List.of(5L), List.of("3")));
    assertThat(cells.typed(new int[] {0, 2}, 2)).isNull(); // the number was dropped
    assertThat(cells.typed(new int[] {1}, 1).dataType()).isEqualTo(DataType.LONG);
  }

  @Test
  void aPageNeverSeesTheCellsOfThePagesBeforeIt() {
    TypedCells cells = new TypedCells("id", PAGE);
    for (int round = 0; round < 3; round++) { // the two arrays swap: each reused after a page
      page(cells, List.of(List.of(1L), List.of(2L), List.of(3L)));
      assertThat(values(cells.typed(null, 3)))
          .containsExactly(List.of(1L), List.of(2L), List.of(3L));
      page(cells, List.of(List.of("a"), List.of("b"), List.of("c")));
      assertThat(cells.typed(null, 3)).isNull();
      page(cells, List.of(List.of("a"), List.of(7L), List.of("c")));
      assertThat(values(cells.typed(new int[] {1}, 1))).containsExactly(List.of(7L));
      assertThat(cells.typed(new int[] {0, 2}, 2)).isNull();
      page(cells, List.of(List.of("a"), List.of("b"), List.of("c")));
      assertThat(cells.typed(null, 3)).isNull();
    }
  }
}
