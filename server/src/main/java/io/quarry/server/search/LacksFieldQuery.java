package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

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
 * have it". Rewritten to nothing when every document of every segment has a term of the field's
 * keyword index (the usual case for a sourcetype's index-time field), so a disjunction holding it
 * does not walk every document to find none.
 */
final class LacksFieldQuery extends Query {
  private final String termsField;
  private final String valuesField;

  /**
   * @param termsField the inverted keyword field whose per-segment document count is checked
   * @param valuesField the doc-values field whose absence defines the documents matched
   */
  LacksFieldQuery(String termsField, String valuesField) {
    this.termsField = requireNonNull(termsField, "termsField is null");
    this.valuesField = requireNonNull(valuesField, "valuesField is null");
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
    return new BooleanQuery.Builder()
        .add(new MatchAllDocsQuery(), BooleanClause.Occur.FILTER)
        .add(new FieldExistsQuery(valuesField), BooleanClause.Occur.MUST_NOT)
        .build();
  }

  @Override
  public void visit(QueryVisitor visitor) {
    visitor.visitLeaf(this);
  }

  @Override
  public String toString(String field) {
    return "lacks(" + valuesField + ")";
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof LacksFieldQuery that
        && termsField.equals(that.termsField)
        && valuesField.equals(that.valuesField);
  }

  @Override
  public int hashCode() {
    return termsField.hashCode() * 31 + valuesField.hashCode();
  }
}
