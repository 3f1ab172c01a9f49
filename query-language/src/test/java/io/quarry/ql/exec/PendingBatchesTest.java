package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.ql.exec.PendingBatches.Batch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The batches a plugin command over events was handed, looked up by row id in order, out of order
 * and after some were let go of; expectations computed from the batch sizes.
 */
class PendingBatchesTest {
  private static Batch batch(long base, int size) {
    List<Map<String, List<Object>>> rows = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      Map<String, List<Object>> row = new LinkedHashMap<>();
      row.put("n", List.of(base + i));
      rows.add(row);
    }
    var page = TestPages.page(rows, List.of("n"));
    return new Batch(base, page, page);
  }

  @Test
  void everyRowFindsItsBatchInAnyOrder() {
    Random random = new Random(7);
    PendingBatches pending = new PendingBatches();
    List<Batch> given = new ArrayList<>();
    long next = 0;
    for (int b = 0; b < 40; b++) {
      Batch batch = batch(next, 1 + random.nextInt(9));
      given.add(batch);
      pending.add(batch);
      next += batch.events().positionCount();
    }
    for (Batch batch : given) { // in order
      for (long id = batch.base(); id < batch.base() + batch.events().positionCount(); id++) {
        assertThat(pending.find(id, IllegalStateException::new)).isSameAs(batch);
      }
    }
    for (int i = 0; i < 500; i++) { // out of order
      long id = random.nextLong(next);
      Batch expected = given.stream().filter(b -> b.holds(id)).findFirst().orElseThrow();
      assertThat(pending.find(id, IllegalStateException::new)).as("row %d", id).isSameAs(expected);
    }
    long end = next;
    assertThatThrownBy(() -> pending.find(end, () -> new IllegalStateException("missing")))
        .hasMessage("missing");
  }

  @Test
  void theBatchesLetGoOfAreNotFound() {
    PendingBatches pending = new PendingBatches();
    List<Batch> given = new ArrayList<>();
    for (int b = 0; b < 10; b++) {
      given.add(batch(b * 5L, 5));
      pending.add(given.getLast());
    }
    assertThat(pending.find(47, IllegalStateException::new)).isSameAs(given.get(9));
    pending.dropBefore(31); // batches 0..5 let go of, and the list compacted
    assertThatThrownBy(() -> pending.find(29, IllegalStateException::new))
        .isInstanceOf(IllegalStateException.class);
    for (long id = 30; id < 50; id++) {
      assertThat(pending.find(id, IllegalStateException::new)).isSameAs(given.get((int) id / 5));
    }
    pending.add(batch(50, 5));
    assertThat(pending.find(52, IllegalStateException::new).base()).isEqualTo(50);
    pending.dropBefore(1_000); // none holds it: all let go of
    assertThatThrownBy(() -> pending.find(52, IllegalStateException::new))
        .isInstanceOf(IllegalStateException.class);
  }
}
