package io.quarry.codecs.block;

import static io.quarry.codecs.block.FilteredSegments.filtersHolding;
import static io.quarry.codecs.block.FilteredSegments.hash;
import static io.quarry.codecs.block.FilteredSegments.writing;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.journal.QuarryCodec;
import java.nio.file.Path;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files of {@link TermFilterFormat}'s first version (no lists of {@link CommonTerms}, no groups)
 * still read, every block's filter holding its entries, and merge with files of the current one.
 */
class CommonTermsFirstVersionTest {
  @TempDir Path dir;

  private FilteredSegments index;

  @BeforeEach
  void open() {
    index = new FilteredSegments(dir);
  }

  @Test
  void filesOfTheFirstVersionStillReadAndMerge() throws Exception {
    index.segment(writing(TermFilterFormat.VERSION_START), 0, 40, id -> new String[] {"every"});
    Path first = index.qtf();
    assertThat(TermFilterFile.parse(first, 40).version()).isEqualTo(TermFilterFormat.VERSION_START);
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      TermFilterValues values = index.checkEveryEntry(reader).get(0);
      assertThat(values.common()).isEmpty();
      assertThat(filtersHolding(values, "every")).isEqualTo(40);
    }
    index.segment(new QuarryCodec(), 100, 140, id -> new String[] {"every"});
    index.forceMerge();
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      index.checkEveryEntry(reader);
    }
    TermFilterFile merged = TermFilterFile.parse(index.qtf(), 80);
    assertThat(merged.version()).isEqualTo(TermFilterFormat.VERSION);
    // listed by the input of 40 of the 80 blocks, and held by the other's 40 (their filters say
    // "maybe": MergedCommonTerms)
    assertThat(merged.common()).containsExactly(hash("every"));
    // the first version's blocks are in no group; the second input's are carried as flushed, 16
    // blocks a group (the merge orders its inputs as its policy likes: before or after the first's)
    assertThat(merged.groups()).hasSize(3);
    int from = merged.groups().get(0).first();
    assertThat(from).isIn(0, 40);
    assertThat(merged.groups().get(1).first()).isEqualTo(from + 16);
    assertThat(merged.groups().get(2).first()).isEqualTo(from + 32);
    assertThat(merged.groups().get(2).end()).isEqualTo(from + 40);
  }
}
