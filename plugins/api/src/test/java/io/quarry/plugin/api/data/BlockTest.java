package io.quarry.plugin.api.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BlockTest {

  @Test
  void randomLongsAndNullsRoundTrip() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    int size = random.nextInt(2000);
    LongBlock.Builder builder = LongBlock.builder(DataType.LONG, random.nextInt(4));
    List<Long> expected = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      if (random.nextInt(5) == 0) {
        builder.appendNull();
        expected.add(null);
      } else {
        long value = random.nextLong();
        builder.append(value);
        expected.add(value);
      }
    }
    LongBlock block = builder.build();
    assertThat(block.positionCount()).as("seed %d", seed).isEqualTo(size);
    for (int i = 0; i < size; i++) {
      assertThat(block.getObject(i)).as("seed %d position %d", seed, i).isEqualTo(expected.get(i));
    }
  }

  @Test
  void bytesBlockKeepsUtf8Boundaries() {
    BytesBlock block =
        BytesBlock.builder(1).append("héllo").appendNull().append("").append("日本").build();
    assertThat(block.positionCount()).isEqualTo(4);
    assertThat(block.getString(0)).isEqualTo("héllo");
    assertThat(block.isNull(1)).isTrue();
    assertThat(block.getObject(1)).isNull();
    assertThat(block.getObject(2)).isEqualTo("");
    assertThat(block.getString(3)).isEqualTo("日本");
    assertThat(block.getLength(3)).isEqualTo(6);
    assertThatThrownBy(() -> block.getString(4)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void pageChecksShapeAndTypes() {
    Schema schema =
        new Schema(
            List.of(
                new Schema.Column("host", DataType.STRING),
                new Schema.Column("count", DataType.LONG)));
    BytesBlock hosts = BytesBlock.builder(2).append("a").append("b").build();
    LongBlock counts = LongBlock.builder(DataType.LONG, 2).append(1).append(2).build();
    Page page = new Page(schema, List.of(hosts, counts));
    assertThat(page.positionCount()).isEqualTo(2);
    assertThatThrownBy(() -> new Page(schema, List.of(counts, hosts)))
        .hasMessageContaining("column 'host' is STRING");
    LongBlock shortBlock = LongBlock.builder(DataType.LONG, 1).append(1).build();
    assertThatThrownBy(() -> new Page(schema, List.of(hosts, shortBlock), 2))
        .hasMessageContaining("block 1 has 1 positions");
  }
}
