package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
 * {@link BlockValueCodes}' grammar: random blocks of every code width written to a real index and
 * read back equal, a block without codes, one of a single value, and codes that do not fit their
 * block refused.
 */
class BlockValueCodesTest {
  @TempDir Path dir;

  @Test
  void codesOfEveryWidthReadBackAsWritten() throws Exception {
    Random random = new Random(23);
    List<int[]> written = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    try (Directory directory = FSDirectory.open(dir);
        IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig())) {
      for (int doc = 0; doc < 400; doc++) {
        int size = 2 + random.nextInt(random.nextBoolean() ? 15 : 3000);
        int events = 1 + random.nextInt(600);
        int[] codes = new int[events];
        for (int e = 0; e < events; e++) {
          codes[e] = random.nextInt(size);
        }
        codes[random.nextInt(events)] = size - 1; // the widest code of the block
        Document document = new Document();
        if (doc % 7 != 3) { // some blocks without codes
          BlockValueCodes.write(document, "f", codes, events, size);
        }
        writer.addDocument(document);
        written.add(doc % 7 != 3 ? codes : null);
        sizes.add(size);
      }
      writer.forceMerge(1);
    }
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      LeafReader leaf = reader.leaves().get(0).reader();
      BlockValueCodes codes = BlockValueCodes.open(leaf, "f");
      int[] into = new int[600];
      for (int doc = 0; doc < written.size(); doc++) {
        int[] expected = written.get(doc);
        int events = expected == null ? 5 : expected.length;
        boolean read = codes.read(doc, events, sizes.get(doc), into);
        assertThat(read).as("doc %d", doc).isEqualTo(expected != null);
        if (read) {
          assertThat(Arrays.copyOf(into, events)).as("doc %d", doc).isEqualTo(expected);
        }
      }
      // one value: no codes needed, every event's is 0
      Arrays.fill(into, 9);
      assertThat(BlockValueCodes.open(leaf, "absent").read(0, 4, 1, into)).isTrue();
      assertThat(Arrays.copyOf(into, 4)).containsOnly(0);
      assertThat(BlockValueCodes.open(leaf, "absent").read(0, 4, 2, into)).isFalse();
    }
  }

  @Test
  void selectedEventsAndSingleCodesAreThoseOfTheWholeRead() throws Exception {
    Random random = new Random(2323);
    List<int[]> written = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    try (Directory directory = FSDirectory.open(dir);
        IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig())) {
      for (int doc = 0; doc < 300; doc++) {
        int size = 2 + random.nextInt(new int[] {1, 3, 15, 255, 3000}[doc % 5]);
        int events = 1 + random.nextInt(1024);
        int[] codes = new int[events];
        for (int e = 0; e < events; e++) {
          codes[e] = random.nextInt(size);
        }
        Document document = new Document();
        BlockValueCodes.write(document, "f", codes, events, size);
        writer.addDocument(document);
        written.add(codes);
        sizes.add(size);
      }
      writer.forceMerge(1);
    }
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      LeafReader leaf = reader.leaves().get(0).reader();
      BlockValueCodes codes = BlockValueCodes.open(leaf, "f");
      int[] into = new int[1024];
      for (int doc = 0; doc < written.size(); doc++) {
        int[] expected = written.get(doc);
        int size = sizes.get(doc);
        boolean[] wanted = new boolean[size];
        for (int v = 0; v < size; v++) {
          wanted[v] = random.nextInt(4) == 0;
        }
        assertThat(codes.advance(doc, expected.length, size)).isTrue();
        List<Integer> selected = new ArrayList<>();
        for (int e = 0; e < expected.length; e++) {
          assertThat(codes.code(e)).as("doc %d event %d", doc, e).isEqualTo(expected[e]);
          if (wanted[expected[e]]) {
            selected.add(e);
          }
        }
        int count = codes.select(expected.length, wanted, into);
        assertThat(Arrays.stream(into, 0, count).boxed().toList())
            .as("doc %d", doc)
            .isEqualTo(selected);
      }
      // one value: no codes, every event or none
      BlockValueCodes absent = BlockValueCodes.open(leaf, "absent");
      assertThat(absent.advance(0, 3, 1)).isTrue();
      assertThat(absent.select(3, new boolean[] {true}, into)).isEqualTo(3);
      assertThat(Arrays.copyOf(into, 3)).containsExactly(0, 1, 2);
      assertThat(absent.select(3, new boolean[] {false}, into)).isZero();
    }
  }

  @Test
  void bitsAreTheFewestWidthThatHoldsEveryIndex() {
    assertThat(BlockValueCodes.bits(2)).isEqualTo(1);
    assertThat(BlockValueCodes.bits(3)).isEqualTo(2);
    assertThat(BlockValueCodes.bits(5)).isEqualTo(4);
    assertThat(BlockValueCodes.bits(16)).isEqualTo(4);
    assertThat(BlockValueCodes.bits(17)).isEqualTo(8);
    assertThat(BlockValueCodes.bits(256)).isEqualTo(8);
    assertThat(BlockValueCodes.bits(257)).isEqualTo(16);
  }

  @Test
  void codesThatDoNotFitTheirBlockAreRefused() throws Exception {
    try (Directory directory = FSDirectory.open(dir);
        IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig())) {
      Document fine = new Document();
      BlockValueCodes.write(fine, "f", new int[] {0, 1, 2, 1}, 4, 3);
      writer.addDocument(fine);
      Document shortOne = new Document(); // 2 bits for 4 events need one byte, not zero
      shortOne.add(
          new BinaryDocValuesField(
              BlockValueCodes.CODES + "f", new BytesRef(new byte[] {BlockValueCodes.VERSION, 2})));
      writer.addDocument(shortOne);
      Document later = new Document(); // a later grammar: read the events
      later.add(
          new BinaryDocValuesField(
              BlockValueCodes.CODES + "f", new BytesRef(new byte[] {9, 2, 0})));
      writer.addDocument(later);
    }
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      LeafReader leaf = reader.leaves().get(0).reader();
      int[] into = new int[4];
      // the codes of a block said to have only 2 values: code 2 is past them
      assertThatThrownBy(() -> BlockValueCodes.open(leaf, "f").read(0, 4, 2, into))
          .isInstanceOf(CorruptIndexException.class);
      assertThat(BlockValueCodes.open(leaf, "f").read(0, 4, 3, into)).isTrue();
      assertThat(into).containsExactly(0, 1, 2, 1);
      assertThatThrownBy(() -> BlockValueCodes.open(leaf, "f").read(1, 4, 3, into))
          .isInstanceOf(CorruptIndexException.class);
      assertThat(BlockValueCodes.open(leaf, "f").read(2, 4, 3, into)).isFalse();
      BlockValueCodes selecting = BlockValueCodes.open(leaf, "f");
      assertThat(selecting.advance(0, 4, 2)).isTrue(); // 2 bits hold 2 values; code 2 does not
      assertThatThrownBy(() -> selecting.select(4, new boolean[] {true, true}, into))
          .isInstanceOf(CorruptIndexException.class);
      assertThatThrownBy(() -> selecting.code(2)).isInstanceOf(CorruptIndexException.class);
    }
  }
}
