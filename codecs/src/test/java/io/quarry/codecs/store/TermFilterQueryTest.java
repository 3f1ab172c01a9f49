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
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.DocValuesFormat;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TermFilterQuery} finds the blocks whose filter holds its terms (all, any, or a 4-byte
 * prefix) alike in a segment whose filters are probed in place ({@link TermFilterFormat}) and in
 * one whose filters are in Lucene's doc values (written before session 28), in one index; and in a
 * segment whose common terms are listed, not filtered ({@link io.quarry.codecs.block.CommonTerms}).
 */
class TermFilterQueryTest {
  @TempDir Path dir;

  private static BytesRef bytes(String text) {
    return new BytesRef(text.getBytes(StandardCharsets.UTF_8));
  }

  /** Block {@code i} of a segment: the terms {@code common}, {@code b<i>} and {@code <tag>}. */
  private static Document block(int i, String tag) {
    String[] terms = {"common", "b" + i, tag};
    TermFilter.Builder filter = new TermFilter.Builder().reset(terms.length * 2);
    for (String term : terms) {
      byte[] b = term.getBytes(StandardCharsets.UTF_8);
      filter.add(TermFilter.hash(b, 0, b.length));
      if (b.length >= TermFilter.PREFIX) {
        filter.add(TermFilter.prefixHash(b, 0));
      }
    }
    Document document = new Document();
    document.add(new BinaryDocValuesField(TermFilterFormat.FIELD, new BytesRef(filter.toBytes())));
    return document;
  }

  private void segment(Codec codec, String tag) throws Exception {
    try (IndexWriter writer =
        new IndexWriter(
            FSDirectory.open(dir),
            new IndexWriterConfig().setCodec(codec).setMergePolicy(NoMergePolicy.INSTANCE))) {
      for (int i = 0; i < 300; i++) {
        writer.addDocument(block(i, tag));
      }
      writer.addDocument(new Document()); // a document without a filter matches nothing
    }
  }

  @Test
  void filtersInPlaceAndInLucenesDocValuesAnswerAlike() throws Exception {
    Codec before =
        new FilterCodec(QuarryCodec.NAME, new QuarryCodec()) {
          private final DocValuesFormat lucenes = new Lucene104Codec().docValuesFormat();

          @Override
          public DocValuesFormat docValuesFormat() {
            return lucenes;
          }
        };
    segment(before, "oldtag");
    segment(new QuarryCodec(), "newtag");
    try (FSDirectory directory = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      assertThat(reader.leaves()).hasSize(2);
      IndexSearcher searcher = new IndexSearcher(reader);
      assertThat(searcher.count(TermFilterQuery.all(bytes("common")))).isEqualTo(600);
      assertThat(searcher.count(TermFilterQuery.all(bytes("oldtag")))).isEqualTo(300);
      assertThat(searcher.count(TermFilterQuery.all(bytes("newtag")))).isEqualTo(300);
      // b17 in both segments; with common, both; with a tag, one; absent, none (or a rare false
      // "maybe": these filters are dense, but 600 probes of one hash found none)
      assertThat(searcher.count(TermFilterQuery.all(bytes("b17")))).isEqualTo(2);
      assertThat(searcher.count(TermFilterQuery.all(bytes("b17"), bytes("common")))).isEqualTo(2);
      assertThat(searcher.count(TermFilterQuery.all(bytes("b17"), bytes("newtag")))).isEqualTo(1);
      assertThat(searcher.count(TermFilterQuery.any(bytes("b17"), bytes("b18")))).isEqualTo(4);
      assertThat(searcher.count(TermFilterQuery.all(bytes("absent-term")))).isZero();
      assertThat(searcher.count(TermFilterQuery.prefix(bytes("newt")))).isEqualTo(300);
      assertThat(searcher.count(TermFilterQuery.prefix(bytes("oldtag")))).isEqualTo(300);
    }
  }

  /**
   * Block {@code i}: "common" and "usual" in every block, "b<i>", "even" in every other block, as
   * the store hands them over (their hashes and their prefixes', {@link TermFilterEntries}).
   */
  private static Document entries(int i) {
    List<String> terms = new ArrayList<>(List.of("common", "usual", "b" + i));
    if (i % 2 == 0) {
      terms.add("even");
    }
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
    return document;
  }

  /** One segment of {@code blocks}: document i is {@code block.apply(i)}. */
  private void entriesSegment(int blocks, java.util.function.IntFunction<Document> block)
      throws Exception {
    try (IndexWriter writer =
        new IndexWriter(
            FSDirectory.open(dir),
            new IndexWriterConfig()
                .setCodec(new QuarryCodec())
                .setMergePolicy(NoMergePolicy.INSTANCE))) {
      for (int i = 0; i < blocks; i++) {
        writer.addDocument(block.apply(i));
      }
    }
  }

  @Test
  void aSegmentsCommonTermsMatchEveryBlockWithoutAProbe() throws Exception {
    // the last document has no filter: it matches nothing
    entriesSegment(301, i -> i < 300 ? entries(i) : new Document());
    try (FSDirectory directory = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      TermFilterValues values =
          (TermFilterValues)
              reader.leaves().get(0).reader().getBinaryDocValues(TermFilterFormat.FIELD);
      assertThat(values.isCommon(TermFilter.hash(bytes("common")))).isTrue();
      assertThat(values.isCommon(TermFilter.hash(bytes("even")))).isFalse();
      int filtersHoldingCommon = 0; // it is left out of them: the count below is the list's
      for (int doc = values.nextDoc(); doc < 300; doc = values.nextDoc()) {
        filtersHoldingCommon += values.filterMayContain(TermFilter.hash(bytes("common"))) ? 1 : 0;
      }
      assertThat(filtersHoldingCommon).isLessThan(10);
      IndexSearcher searcher = new IndexSearcher(reader);
      assertThat(searcher.count(TermFilterQuery.all(bytes("common")))).isEqualTo(300);
      assertThat(searcher.count(TermFilterQuery.all(bytes("common"), bytes("usual"))))
          .isEqualTo(300);
      assertThat(searcher.count(TermFilterQuery.prefix(bytes("comm")))).isEqualTo(300);
      assertThat(searcher.count(TermFilterQuery.all(bytes("even")))).isEqualTo(150);
      assertThat(searcher.count(TermFilterQuery.all(bytes("even"), bytes("common"))))
          .isEqualTo(150);
      assertThat(searcher.count(TermFilterQuery.all(bytes("b17"), bytes("common")))).isEqualTo(1);
      assertThat(searcher.count(TermFilterQuery.all(bytes("b17"), bytes("even")))).isZero();
      assertThat(searcher.count(TermFilterQuery.any(bytes("b17"), bytes("b18")))).isEqualTo(2);
      assertThat(searcher.count(TermFilterQuery.any(bytes("absent-term"), bytes("usual"))))
          .isEqualTo(300);
      assertThat(searcher.count(TermFilterQuery.all(bytes("absent-term"), bytes("common"))))
          .isZero();
      assertThat(searcher.count(TermFilterQuery.all(bytes("absent-term")))).isZero();
    }
  }

  @Test
  void groupsThatSayNoAreSkippedAndTheAnswersAreTheBlocksOwn() throws Exception {
    entriesSegment(300, i -> i == 250 ? new Document() : entries(i)); // a hole in group 3
    try (FSDirectory directory = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      var segment = reader.leaves().get(0).reader();
      TermFilterValues values =
          (TermFilterValues) segment.getBinaryDocValues(TermFilterFormat.FIELD);
      var groups = values.groups();
      // 16 blocks a group at a flush: 0-239 in 15, the 16th over 240-256 (the document without a
      // value joins no count), then 257-272, 273-288 and the last 11
      assertThat(groups.count()).isEqualTo(19);
      assertThat(groups.first(12)).isEqualTo(192);
      assertThat(groups.end(12)).isEqualTo(208);
      assertThat(groups.first(15)).isEqualTo(240);
      assertThat(groups.end(15)).isEqualTo(257);
      assertThat(groups.end(18)).isEqualTo(300);
      // b200 is in group 12 only: the approximation yields none of the other groups' blocks
      long b200 = TermFilter.hash(bytes("b200"));
      GroupSkipping skipping = new GroupSkipping(values, new long[] {b200}, true);
      List<Integer> approximated = new ArrayList<>();
      for (int doc = skipping.nextDoc(); doc != GroupSkipping.NO_MORE_DOCS; ) {
        approximated.add(doc);
        doc = skipping.nextDoc();
      }
      assertThat(approximated).contains(200).allMatch(doc -> doc >= 192 && doc < 208);
      // for terms present and absent, with and without a second term: every block whose entries
      // hold the terms is found (whatever its group's filter says: a group saying a wrong "no"
      // loses one), and every block found is one whose own filter says "maybe" (the group filters
      // only skip, never add)
      IndexSearcher searcher = new IndexSearcher(reader);
      for (int t = 0; t < 400; t++) {
        String term = t < 300 ? "b" + t : "absent-" + t;
        for (boolean withEven : new boolean[] {false, true}) {
          Set<Integer> holding = new TreeSet<>(); // from the entries written, not from a filter
          if (t < 300 && t != 250 && (!withEven || t % 2 == 0)) {
            holding.add(t);
          }
          long[] hashes =
              withEven
                  ? new long[] {TermFilter.hash(bytes(term)), TermFilter.hash(bytes("even"))}
                  : new long[] {TermFilter.hash(bytes(term))};
          Set<Integer> ownMaybe = new TreeSet<>();
          TermFilterValues each =
              (TermFilterValues) segment.getBinaryDocValues(TermFilterFormat.FIELD);
          for (int doc = each.nextDoc(); doc != GroupSkipping.NO_MORE_DOCS; doc = each.nextDoc()) {
            boolean all = true;
            for (long hash : hashes) {
              all &= each.isCommon(hash) || each.filterMayContain(hash);
            }
            if (all) {
              ownMaybe.add(doc);
            }
          }
          var query =
              withEven
                  ? TermFilterQuery.all(bytes(term), bytes("even"))
                  : TermFilterQuery.all(bytes(term));
          Set<Integer> found = new TreeSet<>();
          for (var hit : searcher.search(query, 1_000).scoreDocs) {
            found.add(hit.doc);
          }
          assertThat(found).as(term + " " + withEven).containsAll(holding);
          assertThat(ownMaybe).as(term + " " + withEven).containsAll(found);
        }
      }
      // a term in every other block of every group: each of its blocks is found
      Set<Integer> evens = new TreeSet<>();
      for (var hit : searcher.search(TermFilterQuery.all(bytes("even")), 1_000).scoreDocs) {
        evens.add(hit.doc);
      }
      Set<Integer> written = new TreeSet<>();
      for (int i = 0; i < 300; i += 2) {
        if (i != 250) {
          written.add(i);
        }
      }
      assertThat(evens).containsAll(written);
    }
  }

  /**
   * Review (review-b): a conjunction advances every other iterator to {@code NO_MORE_DOCS} once its
   * lead is exhausted ({@code ConjunctionDISI.doNext}: {@code lead2.advance(doc)} unchecked).
   * {@link GroupSkipping#advance} takes {@code target + 1} (overflowing) to find its group, lands
   * in group 0 and, when group 0 says "no", goes back to a document after it: an iterator moving
   * backwards.
   */
  @Test
  void groupSkippingAdvancedPastTheEndStaysThere() throws Exception {
    leadOverFirstTenBlocks();
    try (FSDirectory directory = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      var segment = reader.leaves().get(0).reader();
      TermFilterValues values =
          (TermFilterValues) segment.getBinaryDocValues(TermFilterFormat.FIELD);
      long b200 = TermFilter.hash(bytes("b200")); // in group 3 only
      GroupSkipping skipping = new GroupSkipping(values, new long[] {b200}, true);
      assertThat(skipping.advance(GroupSkipping.NO_MORE_DOCS))
          .as("advance(NO_MORE_DOCS)")
          .isEqualTo(GroupSkipping.NO_MORE_DOCS);
    }
  }

  /** The same through a search: a conjunction whose lead matches blocks 0 to 9 only. */
  @Test
  void aConjunctionWithAGroupSkippingClauseEnds() throws Exception {
    leadOverFirstTenBlocks();
    try (FSDirectory directory = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      IndexSearcher searcher = new IndexSearcher(reader);
      var query =
          new org.apache.lucene.search.BooleanQuery.Builder()
              .add(
                  new org.apache.lucene.search.TermQuery(
                      new org.apache.lucene.index.Term("lead", "x")),
                  org.apache.lucene.search.BooleanClause.Occur.FILTER)
              .add(
                  TermFilterQuery.all(bytes("b200")),
                  org.apache.lucene.search.BooleanClause.Occur.FILTER)
              .build();
      int count =
          org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
              java.time.Duration.ofSeconds(20), () -> searcher.search(query, 100).scoreDocs.length);
      assertThat(count).isZero();
    }
  }

  /** 300 entry blocks, the first 10 of which also hold the keyword {@code lead:x}. */
  private void leadOverFirstTenBlocks() throws Exception {
    entriesSegment(
        300,
        i -> {
          Document document = entries(i);
          if (i < 10) {
            document.add(
                new org.apache.lucene.document.StringField(
                    "lead", "x", org.apache.lucene.document.Field.Store.NO));
          }
          return document;
        });
  }
}
