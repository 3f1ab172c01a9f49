package io.quarry.codecs.block;

import static io.quarry.codecs.block.FilteredSegments.filtersHolding;
import static io.quarry.codecs.block.FilteredSegments.hash;
import static io.quarry.codecs.block.FilteredSegments.values;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.journal.QuarryCodec;
import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CommonTerms} through {@link TermFilterFormat} on a real index: documents carrying their
 * entries ({@link TermFilterEntries}) flush to filters without the entries in at least {@link
 * CommonTerms#SHARE} of the segment's blocks, which the segment lists instead; every entry of every
 * block stays a "maybe"; a merge keeps what its inputs' lists cover and adds what it drops to the
 * filters of the inputs that listed it. The file's grammar is {@link CommonTermsFileTest}'s, files
 * of the first version {@link CommonTermsFirstVersionTest}'s.
 */
class CommonTermsTest {
  @TempDir Path dir;

  private FilteredSegments index;

  @BeforeEach
  void open() {
    index = new FilteredSegments(dir);
  }

  @Test
  void entriesInNearlyEveryBlockAreListedAndLeftOutOfTheFilters() throws Exception {
    // 40 blocks: "every" in all, "most" in 38 (95%), "half" in 20; a segment of 10 lists nothing
    index.segment(
        new QuarryCodec(),
        0,
        40,
        id ->
            id < 2
                ? new String[] {"every", "half"}
                : id % 2 == 0
                    ? new String[] {"every", "most", "half"}
                    : new String[] {"every", "most"});
    index.segment(new QuarryCodec(), 100, 110, id -> new String[] {"every"});
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      List<TermFilterValues> segments = index.checkEveryEntry(reader);
      TermFilterValues large = segments.get(0);
      assertThat(large.isCommon(hash("every"))).isTrue();
      assertThat(large.isCommon(hash("most"))).isTrue();
      assertThat(large.isCommon(hash("half"))).isFalse();
      assertThat(large.common()).hasSize(2);
      // left out of the filters (a false "maybe" now and then), which are sized without them
      assertThat(filtersHolding(large, "every")).isLessThan(4);
      large = values(reader.leaves().get(0).reader());
      assertThat(large.advanceExact(5)).isTrue();
      assertThat(large.binaryValue().length)
          .isEqualTo(2 + 32 * TermFilter.blocksFor(200, TermFilterGroups.BLOCK_BITS));
      assertThat(large.advanceExact(4)).isTrue();
      assertThat(large.binaryValue().length)
          .isEqualTo(2 + 32 * TermFilter.blocksFor(201, TermFilterGroups.BLOCK_BITS));
      TermFilterValues small = segments.get(1);
      assertThat(small.common()).isEmpty();
      assertThat(filtersHolding(small, "every")).isEqualTo(10);
    }
  }

  @Test
  void aMergeKeepsWhatItsInputsListCoverAndAddsBackWhatItDrops() throws Exception {
    index.segment(new QuarryCodec(), 0, 40, id -> new String[] {"every", "onlya"});
    index.segment(new QuarryCodec(), 100, 140, id -> new String[] {"every"});
    index.segment(new QuarryCodec(), 200, 204, id -> new String[] {"every"}); // too small to list
    index.forceMerge(new Term("key", "7"), new Term("key", "120"));
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      assertThat(reader.leaves()).hasSize(1);
      TermFilterValues merged = index.checkEveryEntry(reader).get(0);
      // "every": listed by inputs of 80 of the 84 blocks; "onlya": by 40, dropped and added back
      assertThat(merged.common())
          .as("every %d, onlya %d", hash("every"), hash("onlya"))
          .containsExactly(hash("every"));
      LeafReader segment = reader.leaves().get(0).reader();
      NumericDocValues ids = segment.getNumericDocValues("id");
      int fromA = 0;
      int othersHolding = 0;
      for (int doc = merged.nextDoc();
          doc != DocIdSetIterator.NO_MORE_DOCS;
          doc = merged.nextDoc()) {
        assertThat(ids.advanceExact(doc)).isTrue();
        boolean inA = ids.longValue() < 100;
        if (inA) {
          fromA++;
          assertThat(merged.filterMayContain(hash("onlya"))).isTrue();
        } else if (merged.filterMayContain(hash("onlya"))) {
          othersHolding++;
        }
      }
      assertThat(fromA).isEqualTo(39);
      assertThat(othersHolding).isLessThan(3);
      // each input's groups carried over its live blocks ("onlya" added to the first's filters)
      TermFilterGroups groups = merged.groups();
      // 16 blocks a group at a flush: the first input's 0-15 (7 deleted), 16-31, 32-39; the
      // second's 0-15, 16-31 (20 deleted), 32-39; the third's 4
      assertThat(groups.count()).isEqualTo(7);
      int[] bounds = new int[14];
      for (int g = 0; g < 7; g++) {
        bounds[2 * g] = groups.first(g);
        bounds[2 * g + 1] = groups.end(g);
      }
      assertThat(bounds).containsExactly(0, 15, 15, 31, 31, 39, 39, 55, 55, 70, 70, 78, 78, 82);
      assertThat(merged.groupMayContain(0, hash("onlya"))).isTrue();
    }
  }
}
