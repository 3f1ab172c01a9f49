package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Random;
import java.util.TreeSet;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.SortedSetDocValuesField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A keyword dictionary's texts by ordinal, over a real index of random values: a few lookups stay
 * on the cache (the dictionary not decoded), many decode it whole, and every text read either way
 * is the dictionary's own for that ordinal — in random order, repeated, after colliding slots — and
 * a second reader of the segment's scan takes the same decoded dictionary.
 */
class OrdinalTextsTest {
  @TempDir Path data;

  @Test
  void fewLookupsStayOnTheCacheManyDecodeTheDictionaryAndEveryTextIsTheOrdinals() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    TreeSet<String> values = new TreeSet<>(); // the dictionary's order: UTF-8 bytes, ASCII here
    try (FSDirectory directory = FSDirectory.open(data);
        IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig())) {
      for (int d = 0; d < 40_000; d++) {
        String value = "s" + Long.toString(random.nextLong() >>> 1, 36);
        values.add(value);
        Document document = new Document();
        document.add(new SortedSetDocValuesField("f", new BytesRef(value)));
        writer.addDocument(document);
      }
      writer.forceMerge(1);
    }
    String[] expected = values.toArray(String[]::new);
    String why = "seed " + seed;
    try (FSDirectory directory = FSDirectory.open(data);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      SortedSetDocValues dictionary = reader.leaves().get(0).reader().getSortedSetDocValues("f");
      assertThat(dictionary.getValueCount()).as(why).isEqualTo(expected.length);

      OrdinalTexts few = new OrdinalTexts("f", expected.length, new SegmentDictionaries());
      for (int i = 0; i < 200; i++) {
        int ord = random.nextInt(expected.length);
        assertThat(few.text(dictionary, ord)).as(why).isEqualTo(expected[ord]);
        assertThat(few.text(dictionary, ord)).as(why).isEqualTo(expected[ord]);
      }
      assertThat(few.decodedWhole()).as(why).isFalse();

      SegmentDictionaries shared = new SegmentDictionaries();
      OrdinalTexts many = new OrdinalTexts("f", expected.length, shared);
      int asked = 0;
      while (!many.decodedWhole()) {
        int ord = random.nextInt(expected.length);
        assertThat(many.text(dictionary, ord)).as(why).isEqualTo(expected[ord]);
        asked++;
      }
      // decoded after ~1 lookup in 64 of the values, not before the fewest misses
      assertThat(asked).as(why).isBetween(256, expected.length / 16);
      for (int ord = expected.length - 1; ord >= 0; ord--) {
        assertThat(many.text(dictionary, ord)).as(why).isEqualTo(expected[ord]);
      }
      // another slice of the segment's scan takes the decoded dictionary, not a copy of its own
      OrdinalTexts other = new OrdinalTexts("f", expected.length, shared);
      while (!other.decodedWhole()) {
        int ord = random.nextInt(expected.length);
        assertThat(other.text(dictionary, ord)).as(why).isEqualTo(expected[ord]);
      }
      assertThat(shared.decoded("f", dictionary)).isSameAs(shared.decoded("f", dictionary));
      assertThat(shared.decoded("f", dictionary)).containsExactly(expected);
    }
  }
}
