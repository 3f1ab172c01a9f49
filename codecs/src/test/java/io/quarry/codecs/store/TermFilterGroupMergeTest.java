package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.block.TermFilter;
import io.quarry.codecs.block.TermFilterEntries;
import io.quarry.codecs.block.TermFilterFormat;
import io.quarry.codecs.block.TermFilterValues;
import io.quarry.codecs.journal.QuarryCodec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review (review-b): a merge of two grouped segments with deletions, where a term common in one
 * input is not common in the merged segment (so the merge adds it back to that input's filters and
 * groups): every live block still answers "maybe" for each of its terms, through its group.
 */
class TermFilterGroupMergeTest {
  @TempDir Path dir;

  private static List<String> terms(String segment, int i) {
    List<String> terms = new ArrayList<>(List.of("usual", segment + "b" + i));
    if (segment.equals("a") || i == 5) {
      terms.add("acommon");
    }
    if (i % 3 == 0) {
      terms.add("third" + segment);
    }
    return terms;
  }

  private static Document block(String segment, int i) {
    List<String> terms = terms(segment, i);
    long[] hashes = new long[terms.size() * 2];
    int n = 0;
    for (String term : terms) {
      byte[] b = term.getBytes(StandardCharsets.UTF_8);
      hashes[n++] = TermFilter.hash(b, 0, b.length);
      if (b.length >= TermFilter.PREFIX) {
        hashes[n++] = TermFilter.prefixHash(b, 0);
      }
    }
    Document document = new Document();
    document.add(new BinaryDocValuesField(TermFilterFormat.FIELD, TermFilterEntries.of(hashes, n)));
    document.add(new StringField("id", segment + i, Field.Store.NO));
    document.add(new StoredField("key", segment + ":" + i));
    return document;
  }

  @Test
  void mergedGroupsWithDeletionsStillSayMaybe() throws Exception {
    try (IndexWriter writer =
        new IndexWriter(
            FSDirectory.open(dir),
            new IndexWriterConfig()
                .setCodec(new QuarryCodec())
                .setMergePolicy(NoMergePolicy.INSTANCE))) {
      for (String segment : new String[] {"a", "b"}) {
        for (int i = 0; i < 150; i++) {
          writer.addDocument(block(segment, i));
        }
        writer.commit();
      }
      for (String segment : new String[] {"a", "b"}) {
        for (int i = 0; i < 150; i += 7) {
          writer.deleteDocuments(new Term("id", segment + i));
        }
        for (int i = 60; i < 70; i++) { // a whole stretch across a group boundary
          writer.deleteDocuments(new Term("id", segment + i));
        }
      }
      writer.commit();
    }
    try (IndexWriter writer =
        new IndexWriter(
            FSDirectory.open(dir), new IndexWriterConfig().setCodec(new QuarryCodec()))) {
      writer.forceMerge(1);
    }
    try (FSDirectory directory = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      assertThat(reader.leaves()).hasSize(1);
      LeafReader segment = reader.leaves().get(0).reader();
      TermFilterValues values =
          (TermFilterValues) segment.getBinaryDocValues(TermFilterFormat.FIELD);
      assertThat(values.groups().count()).as("groups carried").isGreaterThan(2);
      assertThat(values.isCommon(TermFilter.hash(bytes("acommon")))).isFalse();
      int acommon = 0;
      int third = 0;
      for (int doc = values.nextDoc();
          doc != TermFilterValues.NO_MORE_DOCS;
          doc = values.nextDoc()) {
        String[] key = segment.storedFields().document(doc).get("key").split(":");
        List<String> terms = terms(key[0], Integer.parseInt(key[1]));
        acommon += terms.contains("acommon") ? 1 : 0;
        third += terms.contains("thirda") ? 1 : 0;
        for (String term : terms) {
          assertThat(values.mayContain(TermFilter.hash(bytes(term))))
              .as("%s in block %s (doc %d)", term, String.join(":", key), doc)
              .isTrue();
        }
      }
      IndexSearcher searcher = new IndexSearcher(reader);
      assertThat(searcher.count(TermFilterQuery.all(bytes("acommon"))))
          .isGreaterThanOrEqualTo(acommon);
      assertThat(searcher.count(TermFilterQuery.all(bytes("thirda"))))
          .isGreaterThanOrEqualTo(third);
      assertThat(searcher.count(TermFilterQuery.prefix(bytes("thir"))))
          .isGreaterThanOrEqualTo(third);
    }
  }

  private static BytesRef bytes(String text) {
    return new BytesRef(text.getBytes(StandardCharsets.UTF_8));
  }
}
