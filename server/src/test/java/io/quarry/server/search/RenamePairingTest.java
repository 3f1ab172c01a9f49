package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.exec.PageBuilder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A wildcard rename's run pairs each renamed page with the page its stages took ({@link
 * RenameOverEvents#inputOf}): in order, row for row; a page out without its page in, or with
 * another number of rows, fails loudly instead of giving a row another row's names.
 */
class RenamePairingTest {
  private static Page rows(int count) {
    List<List<Object>> cells = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      cells.add(List.of("v" + i));
    }
    Block block = PageBuilder.column("f", cells);
    return new Page(
        new Schema(List.of(new Schema.Column("f", block.dataType()))), List.of(block), count);
  }

  @Test
  void eachRenamedPageTakesTheOldestPageTakenOfItsRows() {
    Page first = rows(3);
    Page second = rows(2);
    ArrayDeque<Page> inputs = new ArrayDeque<>(List.of(first, second));
    assertThat(RenameOverEvents.inputOf(inputs, rows(3))).isSameAs(first);
    assertThat(RenameOverEvents.inputOf(inputs, rows(2))).isSameAs(second);
    assertThat(inputs).isEmpty();
  }

  @Test
  void aPageOutOfStepFailsLoudly() {
    assertThatThrownBy(() -> RenameOverEvents.inputOf(new ArrayDeque<>(), rows(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no page taken");
    ArrayDeque<Page> inputs = new ArrayDeque<>(List.of(rows(3)));
    assertThatThrownBy(() -> RenameOverEvents.inputOf(inputs, rows(2)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("2 rows renamed against 3 rows taken");
  }
}
