package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.TextRegion;
import io.quarry.server.sourcetype.KeyPlaces;
import io.quarry.server.sourcetype.KeyValueBytes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link RegionPlaces}: one pass per block however the blocks' texts interleave (the time-ordered
 * scan of overlapping segments asks them in runs), none for a block asked about a few of its texts,
 * and every text answered as {@link KeyValueBytes#values} answers it alone.
 */
class RegionPlacesTest {
  private static final byte[] KEY = "JSESSIONID".getBytes(StandardCharsets.US_ASCII);
  private static final int TEXTS = 1_024;

  /** A block's texts, access-log lines (three in four with a session id), and where each starts. */
  private record Block(TextRegion region, int[] offsets) {
    static Block of(int seed) {
      StringBuilder text = new StringBuilder();
      int[] offsets = new int[TEXTS + 1];
      for (int i = 0; i < TEXTS; i++) {
        offsets[i] = text.length();
        text.append("10.0.0.")
            .append(i % 250)
            .append(" - - \"GET /cart.do?action=view&itemId=EST-")
            .append(i % 30)
            .append(i % 4 == 0 ? "" : "&JSESSIONID=SD" + i + "SL" + seed)
            .append(" HTTP 1.1\" 200 1665 \"http://www.example.com/product?id=WC\" 310\n");
      }
      offsets[TEXTS] = text.length();
      byte[] bytes = text.toString().getBytes(StandardCharsets.US_ASCII);
      return new Block(new TextRegion(bytes, 0, bytes.length), offsets);
    }

    List<String> answer(RegionPlaces places, int i) {
      byte[] bytes = region.bytes();
      int length = offsets[i + 1] - offsets[i];
      List<String> found = new ArrayList<>();
      KeyValueBytes.Values into =
          (s, e) -> found.add(new String(bytes, s, e - s, StandardCharsets.US_ASCII));
      KeyPlaces keyPlaces = places.places(region, bytes, offsets[i], length);
      if (keyPlaces != null) {
        keyPlaces.values(bytes, offsets[i], length, into);
      } else {
        KeyValueBytes.values(bytes, offsets[i], length, KEY, into);
      }
      return found;
    }

    List<String> alone(int i) {
      List<String> found = new ArrayList<>();
      byte[] bytes = region.bytes();
      KeyValueBytes.values(
          bytes,
          offsets[i],
          offsets[i + 1] - offsets[i],
          KEY,
          (s, e) -> found.add(new String(bytes, s, e - s, StandardCharsets.US_ASCII)));
      return found;
    }
  }

  /** Asks every text of {@code blocks}, in runs of {@code run} texts from each block in turn. */
  private static void askInRuns(RegionPlaces places, List<Block> blocks, int run) {
    for (int start = 0; start < TEXTS; start += run) {
      for (int b = 0; b < blocks.size(); b++) {
        Block block = blocks.get(b);
        for (int i = start; i < Math.min(start + run, TEXTS); i++) {
          assertThat(block.answer(places, i))
              .as("block %d text %d", b, i)
              .isEqualTo(block.alone(i));
        }
      }
    }
  }

  @Test
  void interleavedBlocksTakeOnePassEach() {
    RegionPlaces places = new RegionPlaces(KEY);
    askInRuns(places, List.of(Block.of(1), Block.of(2)), 8);
    assertThat(places.passes()).isEqualTo(2);
  }

  @Test
  void asManyBlocksAsSlotsTakeOnePassEach() {
    List<Block> blocks = new ArrayList<>();
    for (int b = 0; b < RegionPlaces.SLOTS; b++) {
      blocks.add(Block.of(b));
    }
    RegionPlaces places = new RegionPlaces(KEY);
    askInRuns(places, blocks, 3);
    assertThat(places.passes()).isEqualTo(RegionPlaces.SLOTS);
  }

  @Test
  void moreBlocksThanSlotsStillAnswerEveryText() {
    List<Block> blocks = new ArrayList<>();
    for (int b = 0; b <= RegionPlaces.SLOTS; b++) {
      blocks.add(Block.of(b));
    }
    RegionPlaces places = new RegionPlaces(KEY);
    askInRuns(places, blocks, 200); // a block's slot is given away between its runs
    assertThat(places.passes()).isGreaterThan(RegionPlaces.SLOTS + 1);
  }

  @Test
  void aScanOfEveryTextTakesTheBlocksPassAtItsFirstText() {
    Block block = Block.of(3);
    RegionPlaces places = new RegionPlaces(KEY, true);
    assertThat(block.answer(places, 0)).isEqualTo(block.alone(0));
    assertThat(places.passes()).as("the pass taken at the first text").isEqualTo(1);
    for (int i = 1; i < TEXTS; i++) {
      assertThat(block.answer(places, i)).isEqualTo(block.alone(i));
    }
    assertThat(places.passes()).isEqualTo(1);
  }

  /** The passes taken asking every {@code step}th text of one block, each answer checked. */
  private static long passesAskingEvery(int step) {
    Block block = Block.of(step);
    RegionPlaces places = new RegionPlaces(KEY);
    for (int i = 0; i < TEXTS; i += step) {
      assertThat(block.answer(places, i)).isEqualTo(block.alone(i));
    }
    return places.passes();
  }

  @Test
  void aFewTextsOfABlockAreScannedAlone() {
    // one text in 32 of the block (a filter admitting few): fewer than a 16th of its bytes
    assertThat(passesAskingEvery(32)).isZero();
  }

  @Test
  void aFairShareOfABlockTakesItsPass() {
    // one text in 8: past a 16th of the bytes once enough are asked
    assertThat(passesAskingEvery(8)).isEqualTo(1);
  }

  @Test
  void aTextOutsideTheRegionIsScannedAlone() {
    Block block = Block.of(5);
    byte[] bytes = block.region().bytes();
    TextRegion part = new TextRegion(bytes, 0, block.offsets()[1]);
    RegionPlaces places = new RegionPlaces(KEY);
    assertThat(places.places(part, bytes, block.offsets()[1], 10)).isNull();
    assertThat(places.places(null, bytes, 0, 10)).isNull();
    assertThat(places.places(part, bytes.clone(), 0, 10)).isNull();
  }
}
