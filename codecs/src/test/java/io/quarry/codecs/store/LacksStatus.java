package io.quarry.codecs.store;

import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;

/**
 * The events without an index-time {@code status}: over event documents, those without its doc
 * values; over block documents, the blocks where not every event has one.
 */
final class LacksStatus extends Query implements BlockQueries.Aware {
  @Override
  public Query rewrite(org.apache.lucene.search.IndexSearcher searcher) {
    return new BooleanQuery.Builder()
        .add(new MatchAllDocsQuery(), BooleanClause.Occur.FILTER)
        .add(
            new org.apache.lucene.search.FieldExistsQuery(
                EventFields.valuesField("status", IndexedFieldType.LONG)),
            BooleanClause.Occur.MUST_NOT)
        .build();
  }

  @Override
  public Query blockCandidates() {
    return BlockQueries.lacking("status");
  }

  @Override
  public void visit(org.apache.lucene.search.QueryVisitor visitor) {
    visitor.visitLeaf(this);
  }

  @Override
  public String toString(String field) {
    return "lacks(status)";
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof LacksStatus;
  }

  @Override
  public int hashCode() {
    return 23;
  }
}
