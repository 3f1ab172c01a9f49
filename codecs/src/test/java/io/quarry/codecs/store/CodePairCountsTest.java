package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CodePairCounts}: blocks of two fields' codes written to a real index, counted by pair
 * straight from the packed bytes — a hand-counted block, random blocks of every pair of widths up
 * to ten bits (odd and even event counts) equal to counting the written codes, too wide a pair
 * refused, and a code past its values refused without leaving counts behind for the next block.
 */
class CodePairCountsTest {
  @TempDir Path dir;

  @Test
  void aHandCountedBlockOfTwoFourBitFields() throws Exception {
    // method among 5 values, status among 6 (4 bits each), 7 events (the last one half a byte)
    int[] method = {0, 4, 0, 2, 0, 4, 1};
    int[] status = {5, 0, 5, 3, 5, 0, 2};
    int[] expected = new int[5 * 6];
    expected[0 * 6 + 5] = 3; // (0,5) three times
    expected[4 * 6 + 0] = 2; // (4,0) twice
    expected[2 * 6 + 3] = 1;
    expected[1 * 6 + 2] = 1;
    try (DirectoryReader reader = index(List.<int[][]>of(new int[][] {method, status}), 5, 6)) {
      LeafReader leaf = reader.leaves().get(0).reader();
      BlockValueCodes first = BlockValueCodes.open(leaf, "m");
      BlockValueCodes second = BlockValueCodes.open(leaf, "s");
      assertThat(first.advance(0, 7, 5)).isTrue();
      assertThat(second.advance(0, 7, 6)).isTrue();
      int[] into = new int[30];
      assertThat(new CodePairCounts().count(first, second, 7, into)).isTrue();
      assertThat(into).containsExactly(expected);
    }
  }

  @Test
  void randomBlocksCountAsTheirWrittenCodes() throws Exception {
    Random random = new Random(21);
    int[][] sizeChoices = {{2, 2}, {3, 17}, {16, 16}, {5, 9}, {200, 3}, {2, 250}, {12, 40}};
    List<int[][]> blocks = new ArrayList<>();
    List<int[]> sizes = new ArrayList<>();
    for (int b = 0; b < 120; b++) {
      int[] size = sizeChoices[b % sizeChoices.length];
      int events = 1 + random.nextInt(700);
      int[][] codes = new int[2][events];
      for (int e = 0; e < events; e++) {
        codes[0][e] = random.nextInt(size[0]);
        codes[1][e] = random.nextInt(size[1]);
      }
      blocks.add(codes);
      sizes.add(size);
    }
    CodePairCounts pairs = new CodePairCounts();
    try (Directory directory = FSDirectory.open(dir);
        IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig())) {
      for (int b = 0; b < blocks.size(); b++) {
        Document document = new Document();
        int events = blocks.get(b)[0].length;
        BlockValueCodes.write(document, "m", blocks.get(b)[0], events, sizes.get(b)[0]);
        BlockValueCodes.write(document, "s", blocks.get(b)[1], events, sizes.get(b)[1]);
        writer.addDocument(document);
      }
      writer.forceMerge(1);
    }
    int wide = 0;
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      LeafReader leaf = reader.leaves().get(0).reader();
      BlockValueCodes first = BlockValueCodes.open(leaf, "m");
      BlockValueCodes second = BlockValueCodes.open(leaf, "s");
      for (int b = 0; b < blocks.size(); b++) {
        int[][] codes = blocks.get(b);
        int events = codes[0].length;
        int size1 = sizes.get(b)[0];
        int size2 = sizes.get(b)[1];
        assertThat(first.advance(b, events, size1)).isTrue();
        assertThat(second.advance(b, events, size2)).isTrue();
        int[] expected = new int[size1 * size2];
        for (int e = 0; e < events; e++) {
          expected[codes[0][e] * size2 + codes[1][e]]++;
        }
        int[] into = new int[size1 * size2];
        boolean counted = pairs.count(first, second, events, into);
        int bits = BlockValueCodes.bits(size1) + BlockValueCodes.bits(size2);
        assertThat(counted).as("block %d of %d bits", b, bits).isEqualTo(bits <= 10);
        if (counted) {
          assertThat(into).as("block %d", b).containsExactly(expected);
        } else {
          assertThat(into).containsOnly(0);
          wide++;
        }
      }
    }
    assertThat(wide).isPositive(); // {200, 3}: 8 + 2 bits fit, {2, 250} too; {12, 40} does not
  }

  @Test
  void aCodePastItsValuesIsRefusedAndLeavesNoCounts() throws Exception {
    int[] method = {0, 1, 2, 1};
    int[] status = {1, 1, 0, 1};
    try (Directory directory = FSDirectory.open(dir);
        IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig())) {
      // block 0: status codes of 2 bits written for 4 values, read as 3: code 3 is past them
      Document corrupt = new Document();
      BlockValueCodes.write(corrupt, "m", method, 4, 3);
      corrupt.add(
          new BinaryDocValuesField(
              BlockValueCodes.CODES + "s",
              new BytesRef(new byte[] {BlockValueCodes.VERSION, 2, (byte) 0b11_00_01_01})));
      writer.addDocument(corrupt);
      Document good = new Document();
      BlockValueCodes.write(good, "m", method, 4, 3);
      BlockValueCodes.write(good, "s", status, 4, 3);
      writer.addDocument(good);
      writer.forceMerge(1);
    }
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      LeafReader leaf = reader.leaves().get(0).reader();
      BlockValueCodes first = BlockValueCodes.open(leaf, "m");
      BlockValueCodes second = BlockValueCodes.open(leaf, "s");
      CodePairCounts pairs = new CodePairCounts();
      assertThat(first.advance(0, 4, 3)).isTrue();
      assertThat(second.advance(0, 4, 3)).isTrue();
      assertThatThrownBy(() -> pairs.count(first, second, 4, new int[9]))
          .isInstanceOf(CorruptIndexException.class)
          .hasMessageContaining("past 3 values");
      assertThat(first.advance(1, 4, 3)).isTrue();
      assertThat(second.advance(1, 4, 3)).isTrue();
      int[] into = new int[9];
      assertThat(pairs.count(first, second, 4, into)).isTrue();
      // (0,1) (1,1) (2,0) (1,1)
      assertThat(into).containsExactly(0, 1, 0, 0, 2, 0, 1, 0, 0);
    }
  }

  private DirectoryReader index(List<int[][]> blocks, int size1, int size2) throws Exception {
    try (Directory directory = FSDirectory.open(dir);
        IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig())) {
      for (int[][] block : blocks) {
        Document document = new Document();
        BlockValueCodes.write(document, "m", block[0], block[0].length, size1);
        BlockValueCodes.write(document, "s", block[1], block[1].length, size2);
        writer.addDocument(document);
      }
    }
    return DirectoryReader.open(FSDirectory.open(dir));
  }
}
