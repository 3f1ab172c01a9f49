package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link RowPaging}: which columns a re-paged page has and in which order — those its positions
 * hold values in, first valued first, or, where every row lists every column, its input's columns
 * in their order ({@link RowPaging#listedColumns}); expectations written by hand.
 */
class RowPagingTest {
  /** Columns a, b, c, d over two positions: b holds a value only in the second, d in neither. */
  private static Page input() {
    return PageBuilder.toPage(
        List.of("a", "b", "c", "d"),
        List.of(
            List.of(List.of("a0"), List.of("a1")),
            List.of(List.of(), List.of("b1")),
            List.of(List.of("c0"), List.of("c1")),
            List.of(List.of(), List.of())),
        2);
  }

  @Test
  void valuedColumnsFirstValuedFirst() {
    Page page = input();
    Page paged = RowPaging.page(List.of(page, page), List.of(0, 1));
    assertThat(names(paged)).containsExactly("a", "c", "b");
  }

  @Test
  void listedColumnsKeepTheInputsOrderAndAllNullColumns() {
    Page page = input();
    Page paged = RowPaging.page(List.of(page, page), List.of(0, 1), true);
    assertThat(names(paged)).containsExactly("a", "b", "c", "d");
    assertThat(paged.schema().column(3).type()).isEqualTo(DataType.STRING);
    assertThat(paged.block(3).isNull(0)).isTrue();
    assertThat(paged.block(3).isNull(1)).isTrue();
    assertThat(paged.block(1).getValues(1)).containsExactly("b1");
  }

  @Test
  void listedAfterLiteralTableOrFieldsThroughCommandsKeepingRows() {
    assertThat(listed("table a, b | sort a | head 2 | where a>1 | eval x=1 | sort x"))
        .containsExactly(false, true, true, true, true, false);
    assertThat(listed("fields a, b | reverse | dedup a | search a=1 | tail 1 | fillnull"))
        .containsExactly(false, true, true, true, true, true);
    assertThat(listed("fields - a | sort a")).containsExactly(false, false);
    assertThat(listed("table a* | sort a")).containsExactly(false, false);
    assertThat(listed("table a | stats count | sort count")).containsExactly(false, true, false);
    assertThat(listed("table a | rename a AS b | sort b")).containsExactly(false, true, false);
  }

  private static List<Boolean> listed(String commands) {
    var parsed = new Parser(CommandRegistry.builtIns()).parse("* | " + commands).commands();
    boolean[] listed = RowPaging.listedColumns(parsed.subList(1, parsed.size()));
    List<Boolean> answer = new ArrayList<>();
    for (boolean each : listed) {
      answer.add(each);
    }
    return answer;
  }

  private static List<String> names(Page page) {
    return page.schema().columns().stream().map(column -> column.name()).toList();
  }
}
