package io.quarry.codecs.block;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.journal.QuarryCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MergedCommonTerms} through {@link TermFilterFormat} on a real index: a merge whose inputs
 * without a list (flushes too small to list) hold more than a tenth of the blocks still lists the
 * hashes nearly every merged block holds, by probing those inputs' filters, so the filters of the
 * inputs that left them out do not get them added back; the list survives a further merge; a hash
 * the unlisted inputs' blocks lack is still dropped and added back.
 */
class MergedCommonTermsTest {
  @TempDir Path dir;

  private static long hash(String term) {
    return TermFilter.hash(new BytesRef(term.getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * A segment of blocks {@code [from, to)}, each with 200 entries of its own and {@code shared}.
   */
  private void segment(long from, long to, String... shared) throws IOException {
    try (IndexWriter writer =
        new IndexWriter(
            FSDirectory.open(dir),
            new IndexWriterConfig()
                .setCodec(new QuarryCodec())
                .setMergePolicy(NoMergePolicy.INSTANCE)
                .setUseCompoundFile(false))) {
      for (long id = from; id < to; id++) {
        List<Long> entries = new ArrayList<>();
        for (String term : shared) {
          entries.add(hash(term));
        }
        for (int i = 0; i < 200; i++) {
          entries.add(hash("own-" + id + "-" + i));
        }
        long[] hashes = entries.stream().mapToLong(Long::longValue).toArray();
        Document document = new Document();
        document.add(new NumericDocValuesField("id", id));
        document.add(
            new BinaryDocValuesField(
                TermFilterFormat.FIELD, TermFilterEntries.of(hashes, hashes.length)));
        writer.addDocument(document);
      }
    }
  }

  private void forceMerge() throws IOException {
    try (IndexWriter writer =
        new IndexWriter(
            FSDirectory.open(dir),
            new IndexWriterConfig()
                .setCodec(new QuarryCodec())
                .setMergePolicy(new TieredMergePolicy())
                .setUseCompoundFile(false))) {
      writer.forceMerge(1);
    }
  }

  /** The blocks with an id below {@code below} whose own filter holds {@code term}. */
  private static int filtersHolding(LeafReader segment, String term, long below)
      throws IOException {
    TermFilterValues values = (TermFilterValues) segment.getBinaryDocValues(TermFilterFormat.FIELD);
    NumericDocValues ids = segment.getNumericDocValues("id");
    int holding = 0;
    for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
      assertThat(ids.advanceExact(doc)).isTrue();
      if (ids.longValue() < below) {
        assertThat(values.mayContain(hash("every"))).isTrue(); // never a block without its "maybe"
        holding += values.filterMayContain(hash(term)) ? 1 : 0;
      }
    }
    return holding;
  }

  private static TermFilterValues values(DirectoryReader reader) throws IOException {
    assertThat(reader.leaves()).hasSize(1);
    return (TermFilterValues)
        reader.leaves().get(0).reader().getBinaryDocValues(TermFilterFormat.FIELD);
  }

  @Test
  void inputsTooSmallToListDoNotEmptyTheMergedList() throws Exception {
    segment(0, 40, "every", "large"); // lists both
    for (int s = 0; s < 3; s++) { // 30 blocks in segments of 10: no list, their filters hold them
      segment(100 + 10 * s, 110 + 10 * s, "every");
    }
    forceMerge();
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      TermFilterValues merged = values(reader);
      // "every": 40 listed + 30 probed of 70; "large": 40 of 70, below 90%: dropped
      assertThat(merged.common()).containsExactly(hash("every"));
      LeafReader segment = reader.leaves().get(0).reader();
      // the first input's filters, sized without "every", do not get it added back
      assertThat(filtersHolding(segment, "every", 100)).isLessThan(4);
      // "large" is added back to them, as before: no block loses a "maybe"
      assertThat(filtersHolding(segment, "large", 100)).isEqualTo(40);
    }
    // a merged segment keeps its list through the next merge, beside another small flush
    segment(200, 210, "every");
    forceMerge();
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      assertThat(values(reader).common()).containsExactly(hash("every"));
      assertThat(filtersHolding(reader.leaves().get(0).reader(), "every", 100)).isLessThan(4);
    }
  }

  @Test
  void aHashTheUnlistedInputsLackIsNotListed() throws Exception {
    segment(0, 40, "every", "mostly");
    for (int s = 0; s < 3; s++) {
      long from = 100 + 10 * s;
      segment(from, from + 5, "every", "mostly"); // "mostly" in 15 of the 30 blocks
      segment(from + 5, from + 10, "every");
    }
    forceMerge();
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      TermFilterValues merged = values(reader);
      // "mostly": 40 + 15 (and a false "maybe" or two) of 70, below 90%: not listed
      assertThat(merged.common()).containsExactly(hash("every"));
      assertThat(filtersHolding(reader.leaves().get(0).reader(), "mostly", 100)).isEqualTo(40);
    }
  }
}
