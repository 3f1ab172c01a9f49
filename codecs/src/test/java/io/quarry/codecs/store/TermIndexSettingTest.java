package io.quarry.codecs.store;

import static io.quarry.codecs.store.NumberedEvents.events;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index's term index ({@link IndexOptions#termIndex}, {@code storage.termIndex}) decides how its
 * new block buckets index their terms: {@code filters} records layout 3 and writes term filters,
 * {@code postings} layout 2 and {@code _tok} postings; an index that names none follows {@code
 * -Dquarry.storage.termFilters} (filters unless false), which a configured one overrides. Each
 * finds its events by a term.
 */
class TermIndexSettingTest {
  @TempDir Path data;

  private static IndexOptions blocks(TermIndex termIndex) {
    return IndexOptions.builder().format(BucketFormat.BLOCKS).termIndex(termIndex).build();
  }

  @Test
  void eachIndexTakesItsOwnTermIndexAndTheUnconfiguredOneTheProperty() throws Exception {
    Map<String, IndexOptions> options = new LinkedHashMap<>();
    options.put("filters", blocks(TermIndex.FILTERS));
    options.put("postings", blocks(TermIndex.POSTINGS));
    options.put("unset", blocks(null));
    write(options);
    assertThat(layout("filters")).isEqualTo(List.of("blocks 3", "filters"));
    assertThat(layout("postings")).isEqualTo(List.of("blocks 2", "postings"));
    assertThat(layout("unset")).as("the default").isEqualTo(List.of("blocks 3", "filters"));
  }

  @Test
  void theSystemPropertyDecidesOnlyWhereNoTermIndexIsConfigured() throws Exception {
    Map<String, IndexOptions> options = new LinkedHashMap<>();
    options.put("filters", blocks(TermIndex.FILTERS));
    options.put("unset", blocks(null));
    System.setProperty(TermIndex.TERM_FILTERS_PROPERTY, "false");
    try {
      write(options);
    } finally {
      System.clearProperty(TermIndex.TERM_FILTERS_PROPERTY);
    }
    assertThat(layout("filters")).isEqualTo(List.of("blocks 3", "filters"));
    assertThat(layout("unset")).isEqualTo(List.of("blocks 2", "postings"));
  }

  @Test
  void namesAreFiltersAndPostingsOnly() {
    assertThat(TermIndex.fromName("filters")).isEqualTo(TermIndex.FILTERS);
    assertThat(TermIndex.fromName("postings")).isEqualTo(TermIndex.POSTINGS);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> TermIndex.fromName("bloom"))
        .hasMessage("must be filters or postings, not 'bloom'");
  }

  /** Writes 300 events to each index, commits, and finds {@code event 123} by its term. */
  private void write(Map<String, IndexOptions> options) throws Exception {
    try (EventStore store = EventStore.open(data, options)) {
      for (String index : options.keySet()) {
        store.write(index, events(0, 300));
        store.index(index).commit();
        List<String> found = new ArrayList<>();
        store.scan(
            List.of(index),
            new TermQuery(new Term(EventFields.TOKENS, "123")),
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            event -> {
              if (event.event().raw().equals("event 123")) {
                found.add(event.event().raw());
              }
              return true;
            });
        assertThat(found).as(index).containsExactly("event 123");
      }
    }
  }

  /** The hot bucket's recorded format, then the term index its segments hold. */
  private List<String> layout(String index) throws Exception {
    Path bucket = data.resolve("indexes").resolve(index).resolve("buckets").resolve("1");
    List<String> layout = new ArrayList<>();
    layout.add(Files.readString(bucket.resolve(BucketFormat.MARKER)).strip());
    try (var directory = FSDirectory.open(bucket);
        var reader = DirectoryReader.open(directory)) {
      for (var leaf : reader.leaves()) {
        var fields = leaf.reader().getFieldInfos();
        boolean postings = fields.fieldInfo(EventFields.TOKENS) != null;
        boolean filters = fields.fieldInfo(BlockDocuments.TERM_FILTER) != null;
        layout.add(postings ? (filters ? "both" : "postings") : filters ? "filters" : "none");
      }
    }
    return layout;
  }
}
