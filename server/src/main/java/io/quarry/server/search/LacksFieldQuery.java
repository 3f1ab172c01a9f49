package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.EventFields;
import io.quarry.codecs.store.IndexedFieldType;
import java.io.IOException;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Terms;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.FieldExistsQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;

/**
 * The documents without an index-time value for a field: "every document but those whose doc values
 * have it" (of any of its types: keyword, long, double). Rewritten to nothing when every document
 * of every segment has a term of the field's keyword index (the usual case for a sourcetype's
 * index-time field), so a disjunction holding it does not walk every document to find none. Over
 * block documents it is the blocks where not every event has the field.
 */
final class LacksFieldQuery extends Query implements io.quarry.codecs.store.BlockQueries.Aware {
  private final String field;
  private final String termsField;

  /** The documents without an index-time {@code field}. */
  LacksFieldQuery(String field) {
    this.field = requireNonNull(field, "field is null");
    this.termsField = EventFields.keywordField(field);
  }

  @Override
  public Query rewrite(IndexSearcher searcher) throws IOException {
    boolean everyDocumentHasIt = true;
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      Terms terms = leaf.reader().terms(termsField);
      if (terms == null || terms.getDocCount() != leaf.reader().maxDoc()) {
        everyDocumentHasIt = false;
        break;
      }
    }
    if (everyDocumentHasIt) {
      return new MatchNoDocsQuery("every document has an index-time " + termsField);
    }
    BooleanQuery.Builder lacking =
        new BooleanQuery.Builder().add(new MatchAllDocsQuery(), BooleanClause.Occur.FILTER);
    for (IndexedFieldType type : IndexedFieldType.values()) {
      lacking.add(
          new FieldExistsQuery(EventFields.valuesField(field, type)), BooleanClause.Occur.MUST_NOT);
    }
    return lacking.build();
  }

  /** Blocks where some event has no index-time value for the field (format: blocks). */
  @Override
  public Query blockCandidates() {
    return io.quarry.codecs.store.BlockQueries.lacking(field);
  }

  @Override
  public void visit(QueryVisitor visitor) {
    visitor.visitLeaf(this);
  }

  @Override
  public String toString(String field) {
    return "lacks(" + field + ")";
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof LacksFieldQuery that && field.equals(that.field);
  }

  @Override
  public int hashCode() {
    return field.hashCode();
  }
}
