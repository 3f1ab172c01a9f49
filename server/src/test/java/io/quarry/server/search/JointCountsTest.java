package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.engine.aggregation.CountPages;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.SortedSetDocValuesField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link JointCounts} over a real segment's dictionaries: combinations packed and unpacked back to
 * their values' text, the combinations that do not fit a {@code long} refused, and the counts
 * handed on in pieces once the table holds its limit, with the same totals.
 */
class JointCountsTest {
  private static final List<String> BY = List.of("a", "b");
  private static final int A_VALUES = 50;
  private static final int B_VALUES = 37;

  private final ByteBuffersDirectory directory = new ByteBuffersDirectory();
  private DirectoryReader reader;
  private LeafReader leaf;

  @BeforeEach
  void index() throws IOException {
    try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig())) {
      for (int a = 0; a < A_VALUES; a++) {
        for (int b = 0; b < B_VALUES; b++) {
          Document document = new Document();
          document.add(new SortedSetDocValuesField("a", new BytesRef("a" + a)));
          document.add(new SortedSetDocValuesField("b", new BytesRef("b" + b)));
          writer.addDocument(document);
        }
      }
      writer.forceMerge(1);
    }
    reader = DirectoryReader.open(directory);
    leaf = reader.leaves().get(0).reader();
  }

  @AfterEach
  void close() throws IOException {
    reader.close();
    directory.close();
  }

  private SortedSetDocValues[] dictionaries() throws IOException {
    return new SortedSetDocValues[] {
      DocValues.getSortedSet(leaf, "a"), DocValues.getSortedSet(leaf, "b")
    };
  }

  /** Counts combination (a_i, b_j) {@code i * j + 1} times, through the packed keys. */
  private List<Page> count(int flushAt) throws IOException {
    List<Page> pages = new ArrayList<>();
    SortedSetDocValues[] dictionaries = dictionaries();
    JointCounts counts = JointCounts.over(dictionaries, BY, pages::add, flushAt);
    long[] ords = new long[2];
    for (int a = 0; a < A_VALUES; a++) {
      for (int b = 0; b < B_VALUES; b++) {
        ords[0] = dictionaries[0].lookupTerm(new BytesRef("a" + a));
        ords[1] = dictionaries[1].lookupTerm(new BytesRef("b" + b));
        long key = counts.key(ords);
        counts.add(key, a * b);
        counts.add(key, 1);
      }
    }
    counts.flush();
    return pages;
  }

  private static Map<String, Long> totals(List<Page> pages) {
    Map<String, Long> totals = new TreeMap<>();
    for (Page page : pages) {
      BytesBlock a = (BytesBlock) page.block("a");
      BytesBlock b = (BytesBlock) page.block("b");
      LongBlock count = (LongBlock) page.block(CountPages.COUNT);
      for (int p = 0; p < page.positionCount(); p++) {
        totals.merge(a.getString(p) + "|" + b.getString(p), count.getLong(p), Long::sum);
      }
    }
    return totals;
  }

  @Test
  void combinationsComeBackAsTheirValuesWithTheirCounts() throws IOException {
    List<Page> pages = count(JointCounts.FLUSH_AT);
    assertThat(pages).hasSize(1); // under the limit: one page at the end
    Map<String, Long> totals = totals(pages);
    assertThat(totals).hasSize(A_VALUES * B_VALUES);
    assertThat(pages.get(0).positionCount()).isEqualTo(A_VALUES * B_VALUES);
    for (int a = 0; a < A_VALUES; a++) {
      for (int b = 0; b < B_VALUES; b++) {
        assertThat(totals.get("a" + a + "|b" + b)).as("a%d b%d", a, b).isEqualTo(a * b + 1L);
      }
    }
  }

  @Test
  void packedKeysAreDistinctDigits() throws IOException {
    JointCounts counts = JointCounts.over(dictionaries(), BY, page -> {}, 10);
    assertThat(counts.key(new long[] {0, 0})).isZero();
    assertThat(counts.key(new long[] {0, 1})).isEqualTo(1);
    assertThat(counts.key(new long[] {1, 0})).isEqualTo(B_VALUES); // b's base: its dictionary
    assertThat(counts.key(new long[] {A_VALUES - 1, B_VALUES - 1}))
        .isEqualTo((long) A_VALUES * B_VALUES - 1);
  }

  @Test
  void atTheLimitTheCountsAreHandedOnInPiecesWithTheSameTotals() throws IOException {
    int flushAt = 100;
    List<Page> pieces = count(flushAt);
    assertThat(pieces.size()).isGreaterThanOrEqualTo(A_VALUES * B_VALUES / flushAt);
    assertThat(pieces)
        .allSatisfy(page -> assertThat(page.positionCount()).isLessThanOrEqualTo(flushAt));
    assertThat(totals(pieces)).isEqualTo(totals(count(JointCounts.FLUSH_AT)));
  }

  @Test
  void flushingNothingHandsNothing() throws IOException {
    List<Page> pages = new ArrayList<>();
    JointCounts counts = JointCounts.over(dictionaries(), BY, pages::add);
    counts.flush();
    assertThat(pages).isEmpty();
  }

  @Test
  void combinationsPastALongAreRefused() throws IOException {
    SortedSetDocValues wide = sized(1L << 32);
    assertThat(JointCounts.over(new SortedSetDocValues[] {wide, wide}, BY, page -> {})).isNull();
    SortedSetDocValues fits = sized(1L << 31);
    assertThat(JointCounts.over(new SortedSetDocValues[] {fits, fits}, BY, page -> {})).isNotNull();
    SortedSetDocValues third = sized(3);
    assertThat(
            JointCounts.over(
                new SortedSetDocValues[] {fits, fits, third}, List.of("a", "b", "c"), page -> {}))
        .as("2^62 * 3 overflows")
        .isNull();
  }

  /** A dictionary (Lucene's doc values) of {@code values} terms and no documents. */
  private static SortedSetDocValues sized(long values) {
    return new SortedSetDocValues() {
      @Override
      public long getValueCount() {
        return values;
      }

      @Override
      public long nextOrd() {
        throw new UnsupportedOperationException();
      }

      @Override
      public int docValueCount() {
        return 0;
      }

      @Override
      public BytesRef lookupOrd(long ord) {
        throw new UnsupportedOperationException();
      }

      @Override
      public boolean advanceExact(int target) {
        return false;
      }

      @Override
      public int docID() {
        return NO_MORE_DOCS;
      }

      @Override
      public int nextDoc() {
        return NO_MORE_DOCS;
      }

      @Override
      public int advance(int target) {
        return NO_MORE_DOCS;
      }

      @Override
      public long cost() {
        return 0;
      }
    };
  }
}
