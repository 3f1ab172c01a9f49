package io.quarry.codecs.block;

import static io.quarry.codecs.block.FilteredSegments.hash;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.codecs.journal.QuarryCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file of {@link TermFilterFormat} with {@link CommonTerms}' lists is the grammar's (parsed by
 * hand, {@link TermFilterFile}, not by the reader): its common terms sorted, its filters and groups
 * holding every entry but the common ones; a list out of order fails to open, naming the file.
 */
class CommonTermsFileTest {
  @TempDir Path dir;

  private FilteredSegments index;

  @BeforeEach
  void open() {
    index = new FilteredSegments(dir);
  }

  @Test
  void theFileIsTheGrammars() throws Exception {
    index.segment(new QuarryCodec(), 0, 20, id -> new String[] {"every", "also"});
    TermFilterFile file = TermFilterFile.parse(index.qtf(), 20);
    assertThat(file.version()).isEqualTo(TermFilterFormat.VERSION);
    assertThat(file.maxDoc()).isEqualTo(20);
    long[] expected = {hash("every"), hash("also")};
    java.util.Arrays.sort(expected);
    assertThat(file.common()).containsExactly(expected);
    assertThat(file.values()).hasSize(20);
    for (int doc = 0; doc < 20; doc++) {
      BytesRef filter = new BytesRef(file.values().get(doc));
      for (long entry : index.entriesById().get((long) doc)) {
        assertThat(
                CommonTerms.contains(file.common(), entry) || TermFilter.mayContain(filter, entry))
            .isTrue();
      }
    }
    // two groups of the 20 blocks (16 and 4), each holding its blocks' entries but the common ones
    assertThat(file.groups()).hasSize(2);
    assertThat(file.groups().get(0).first()).isZero();
    assertThat(file.groups().get(0).end()).isEqualTo(16);
    assertThat(file.groups().get(1).first()).isEqualTo(16);
    assertThat(file.groups().get(1).end()).isEqualTo(20);
    int held = 0;
    for (var block : index.entriesById().entrySet()) {
      TermFilterFile.Group group = file.groups().get(block.getKey() < 16 ? 0 : 1);
      for (long entry : block.getValue()) {
        if (!CommonTerms.contains(file.common(), entry)) {
          assertThat(
                  TermFilter.mayContain(new BytesRef(group.filter()), TermFilter.groupHash(entry)))
              .isTrue();
          held++;
        }
      }
    }
    assertThat(held).isGreaterThan(20);
  }

  @Test
  void aListOutOfOrderFailsToOpenNamingTheFile() throws Exception {
    index.segment(new QuarryCodec(), 0, 20, id -> new String[] {"every", "also"});
    Path path = index.qtf();
    TermFilterFile file = TermFilterFile.parse(path, 20);
    byte[] bytes = Files.readAllBytes(path);
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    buffer.putLong((int) file.commonStart(), file.common()[1]);
    buffer.putLong((int) file.commonStart() + 8, file.common()[0]);
    Files.write(path, bytes);
    assertThatThrownBy(() -> DirectoryReader.open(FSDirectory.open(dir)))
        .isInstanceOf(CorruptIndexException.class)
        .hasMessageContaining("common terms out of order")
        .hasMessageContaining(path.getFileName().toString());
  }
}
