package io.quarry.codecs.store;

import io.quarry.codecs.block.TermFilter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.LongRange;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.MultiTermQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.WildcardQuery;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.BytesRefIterator;

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

  /**
   * The block documents that may hold an event {@code query} matches, in a bucket with postings.
   */
  static Query candidates(Query query) {
    return candidates(query, false);
  }

  /**
   * The block documents that may hold an event {@code query} matches. With {@code filtered} (a
   * layout 3 bucket: {@link BucketFormat.Recorded#termFilters}) the {@code _tok} terms have no
   * postings: a term becomes a probe of each block's {@link io.quarry.codecs.block.TermFilter}
   * ({@link TermFilterQuery}), a wildcard or prefix term with a literal prefix of at least {@link
   * TermFilter#PREFIX} bytes a probe of that prefix, and any other multi-term query on {@code
   * _tok}, which a filter cannot answer, every block (its events are checked one by one).
   */
  static Query candidates(Query query, boolean filtered) {
    return switch (query) {
      case TermQuery term when filtered && isToken(term.getTerm().field()) ->
          TermFilterQuery.all(term.getTerm().bytes());
      case TermInSetQuery terms when filtered && isToken(terms.getField()) -> anyOf(terms);
      case WildcardQuery wildcard when filtered && isToken(wildcard.getField()) ->
          literalPrefix(wildcard.getTerm().bytes());
      case PrefixQuery prefix when filtered && isToken(prefix.getField()) ->
          prefix.getPrefix().bytes().length >= TermFilter.PREFIX
              ? TermFilterQuery.prefix(prefix.getPrefix().bytes())
              : new MatchAllDocsQuery();
      case MultiTermQuery terms when filtered && isToken(terms.getField()) ->
          new MatchAllDocsQuery();
      case TermQuery term -> term;
      case TermInSetQuery terms -> terms;
      case MultiTermQuery terms -> terms;
      case MatchAllDocsQuery all -> all;
      case MatchNoDocsQuery none -> none;
      case ConstantScoreQuery constant ->
          new ConstantScoreQuery(candidates(constant.getQuery(), filtered));
      case BoostQuery boost -> candidates(boost.getQuery(), filtered);
      case BooleanQuery bool -> booleanCandidates(bool, filtered);
      case Aware aware -> aware.blockCandidates();
      default -> new MatchAllDocsQuery();
    };
  }

  /**
   * The blocks a wildcard term may match in: a probe of its literal prefix (the bytes before the
   * first {@code *}, {@code ?} or escape) when that is at least {@link TermFilter#PREFIX} bytes,
   * else every block.
   */
  private static Query literalPrefix(BytesRef pattern) {
    int literal = 0;
    while (literal < pattern.length) {
      byte b = pattern.bytes[pattern.offset + literal];
      if (b == '*' || b == '?' || b == '\\') {
        break;
      }
      literal++;
    }
    return literal >= TermFilter.PREFIX ? TermFilterQuery.prefix(pattern) : new MatchAllDocsQuery();
  }

  private static boolean isToken(String field) {
    return EventFields.TOKENS.equals(field);
  }

  private static Query anyOf(TermInSetQuery query) {
    List<BytesRef> terms = new ArrayList<>();
    try {
      BytesRefIterator iterator = query.getBytesRefIterator();
      for (BytesRef term = iterator.next(); term != null; term = iterator.next()) {
        terms.add(BytesRef.deepCopyOf(term));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // the query's own terms, in memory
    }
    return TermFilterQuery.any(terms.toArray(BytesRef[]::new));
  }

  private static Query booleanCandidates(BooleanQuery query, boolean filtered) {
    BooleanQuery.Builder builder = new BooleanQuery.Builder();
    builder.setMinimumNumberShouldMatch(query.getMinimumNumberShouldMatch());
    boolean positive = false;
    List<BytesRef> required =
        new ArrayList<>(); // filtered: _tok terms every match has, probed once
    for (BooleanClause clause : query.clauses()) {
      if (clause.occur() == BooleanClause.Occur.MUST_NOT) {
        continue; // a block can hold events with and without the excluded terms
      }
      if (filtered
          && clause.isRequired()
          && clause.query() instanceof TermQuery term
          && isToken(term.getTerm().field())) {
        required.add(term.getTerm().bytes());
        positive = true;
        continue;
      }
      builder.add(candidates(clause.query(), filtered), clause.occur());
      positive = true;
    }
    if (!required.isEmpty()) {
      builder.add(
          TermFilterQuery.all(required.toArray(BytesRef[]::new)), BooleanClause.Occur.FILTER);
    }
    return positive ? builder.build() : new MatchAllDocsQuery();
  }

  /**
   * The candidates of {@code query} among one source's blocks whose events may lie in {@code
   * [earliest, latest)}: blocks whose time range intersects it, unless the bucket lies inside.
   */
  static Query forSource(Query query, TimeOrderedScan.Source source, long earliest, long latest) {
    Bucket bucket = source.bucket();
    Query candidates = candidates(query, bucket.termFilters());
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
