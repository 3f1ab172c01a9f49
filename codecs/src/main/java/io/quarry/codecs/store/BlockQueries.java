package io.quarry.codecs.store;

import org.apache.lucene.document.LongRange;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.MultiTermQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;

/**
 * The block documents a scan reads for an event query: every block holding an event the query could
 * match. A block document has the union of its events' terms, so a query that asks for terms to be
 * present (term, term set, wildcard, prefix, regexp, term range — and their conjunctions and
 * disjunctions) finds every block with a matching event, and more; an exclusion ({@code MUST_NOT})
 * cannot be decided per block and is dropped, a query of the caller's own that is {@link Aware}
 * says itself which blocks to read, and any other query (points, doc values) becomes "every block".
 * The result is a superset: the caller checks every event of a candidate block, as it checks the
 * events of an inexact translation.
 */
public final class BlockQueries {
  private BlockQueries() {}

  /**
   * A query of the caller's own (not one of Lucene's) that knows which block documents may hold an
   * event it matches; any other unknown query is taken to match every block.
   */
  public interface Aware {
    /** The block documents that may hold a matching event, in Lucene's own queries. */
    Query blockCandidates();
  }

  /**
   * The block documents that may hold an event without an index-time value for {@code field} (as
   * doc values would have none): those where not every event has one ({@value
   * BlockDocuments#COMPLETE} holds the fields every event of a block has).
   */
  public static Query lacking(String field) {
    return new BooleanQuery.Builder()
        .add(new MatchAllDocsQuery(), BooleanClause.Occur.FILTER)
        .add(
            new TermQuery(new org.apache.lucene.index.Term(BlockDocuments.COMPLETE, field)),
            BooleanClause.Occur.MUST_NOT)
        .build();
  }

  /** The block documents that may hold an event {@code query} matches. */
  static Query candidates(Query query) {
    return switch (query) {
      case TermQuery term -> term;
      case TermInSetQuery terms -> terms;
      case MultiTermQuery terms -> terms;
      case MatchAllDocsQuery all -> all;
      case MatchNoDocsQuery none -> none;
      case ConstantScoreQuery constant -> new ConstantScoreQuery(candidates(constant.getQuery()));
      case BoostQuery boost -> candidates(boost.getQuery());
      case BooleanQuery bool -> booleanCandidates(bool);
      case Aware aware -> aware.blockCandidates();
      default -> new MatchAllDocsQuery();
    };
  }

  private static Query booleanCandidates(BooleanQuery query) {
    BooleanQuery.Builder builder = new BooleanQuery.Builder();
    builder.setMinimumNumberShouldMatch(query.getMinimumNumberShouldMatch());
    boolean positive = false;
    for (BooleanClause clause : query.clauses()) {
      if (clause.occur() == BooleanClause.Occur.MUST_NOT) {
        continue; // a block can hold events with and without the excluded terms
      }
      builder.add(candidates(clause.query()), clause.occur());
      positive = true;
    }
    return positive ? builder.build() : new MatchAllDocsQuery();
  }

  /**
   * The candidates of {@code query} among one source's blocks whose events may lie in {@code
   * [earliest, latest)}: blocks whose time range intersects it, unless the bucket lies inside.
   */
  static Query forSource(Query query, TimeOrderedScan.Source source, long earliest, long latest) {
    Query candidates = candidates(query);
    Bucket bucket = source.bucket();
    if (bucket.minTime() >= earliest && bucket.maxTime() < latest) {
      return candidates;
    }
    return new BooleanQuery.Builder()
        .add(candidates, BooleanClause.Occur.FILTER)
        .add(
            LongRange.newIntersectsQuery(
                BlockDocuments.TIME_RANGE, new long[] {earliest}, new long[] {latest - 1}),
            BooleanClause.Occur.FILTER)
        .build();
  }
}
