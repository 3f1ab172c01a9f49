package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A batch search whose scan fails closes its {@link MapSideStates} at once (PageBatch's catch); a
 * slice's map side that still hands its state page over after that (a slice running when the scan
 * threw) has it given back too: each state reserved once, released once, none held for good.
 */
class MapSideStatesTest {
  @Test
  void aStateHandedOverAfterCloseIsGivenBack() {
    MemoryAccount account = new MemoryAccount("states", Long.MAX_VALUE);
    BlockFactory factory = new BlockFactory(account);
    MapSideStates states = new MapSideStates(factory);
    states.accept(state(factory)); // a slice that finished before the failure
    states.close(); // the scan failed: PageBatch gives back what is held
    assertThat(account.used()).isZero();
    states.accept(state(factory)); // a slice still running when the scan failed
    assertThat(account.used()).as("a late slice's state, reserved, never released").isZero();
  }

  private static Page state(BlockFactory factory) {
    var block = factory.newLongBlockBuilder(2).append(1).append(2).build();
    return new Page(new Schema(List.of(new Schema.Column("c", DataType.LONG))), List.of(block));
  }
}
