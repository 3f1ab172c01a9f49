package io.quarry.codecs.store;

import io.quarry.codecs.block.TermFilter;
import io.quarry.codecs.block.TermFilterValues;
import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.ConstantScoreScorer;
import org.apache.lucene.search.ConstantScoreWeight;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.TwoPhaseIterator;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BytesRef;

/**
 * The block documents of a layout 3 bucket whose {@link TermFilter} may hold every one of some
 * terms ({@link #all}) or any of them ({@link #any}): the candidates of a term query on {@code
 * _tok}, which such a bucket has no postings for. A two-phase query: the approximation is every
 * block with a filter, the check probes the filter, so in a conjunction the other clauses (a
 * keyword term, the time range) lead and only their blocks' filters are read. A probe reads the
 * filter in place ({@link TermFilterValues}, the 32 bytes a term needs) in segments written with
 * {@link io.quarry.codecs.block.TermFilterFormat}, and copies it out of Lucene's doc values in
 * older ones. A term of the segment's {@link io.quarry.codecs.block.CommonTerms} is no probe: a
 * "maybe" in every block (which its filter leaves out). Where the segment groups its blocks ({@link
 * io.quarry.codecs.block.TermFilterGroups}) the approximation skips the groups whose filter says
 * "no" ({@link GroupSkipping}), so a rare term probes a filter per group and the blocks of the few
 * groups that say "maybe".
 */
final class TermFilterQuery extends Query {
  private final long[] hashes;
  private final boolean every;
  private final String description;

  private TermFilterQuery(long[] hashes, boolean every, String description) {
    this.hashes = hashes;
    this.every = every;
    this.description = description;
  }

  /** The blocks that may hold every one of {@code terms} (lower-cased UTF-8 bytes). */
  static TermFilterQuery all(BytesRef... terms) {
    return of(terms, true);
  }

  /** The blocks that may hold any of {@code terms}. */
  static TermFilterQuery any(BytesRef... terms) {
    return of(terms, false);
  }

  /**
   * The blocks that may hold a term beginning with the first {@link TermFilter#PREFIX} bytes of
   * {@code prefix} (lower-cased UTF-8, at least that long).
   */
  static TermFilterQuery prefix(BytesRef prefix) {
    if (prefix.length < TermFilter.PREFIX) {
      throw new IllegalArgumentException("a prefix of " + prefix.length + " bytes");
    }
    return new TermFilterQuery(
        new long[] {TermFilter.prefixHash(prefix.bytes, prefix.offset)},
        true,
        "filter_prefix("
            + new BytesRef(prefix.bytes, prefix.offset, TermFilter.PREFIX).utf8ToString()
            + "*)");
  }

  private static TermFilterQuery of(BytesRef[] terms, boolean every) {
    long[] hashes = new long[terms.length];
    StringBuilder description = new StringBuilder(every ? "filter_all(" : "filter_any(");
    for (int i = 0; i < terms.length; i++) {
      hashes[i] = TermFilter.hash(terms[i]);
      description.append(i == 0 ? "" : " ").append(terms[i].utf8ToString());
    }
    return new TermFilterQuery(hashes, every, description.append(')').toString());
  }

  @Override
  public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
    return new ConstantScoreWeight(this, boost) {
      @Override
      public ScorerSupplier scorerSupplier(LeafReaderContext context) throws IOException {
        BinaryDocValues filters = context.reader().getBinaryDocValues(BlockDocuments.TERM_FILTER);
        if (filters == null) {
          return null;
        }
        TwoPhaseIterator probe;
        if (filters instanceof TermFilterValues inPlace) {
          long[] probed = probed(inPlace);
          if (probed == null) { // every block may hold a common term
            return new DefaultScorerSupplier(new ConstantScoreScorer(score(), scoreMode, filters));
          }
          probe =
              new TwoPhaseIterator(new GroupSkipping(inPlace, probed, every)) {
                @Override
                public boolean matches() throws IOException {
                  for (long hash : probed) {
                    if (inPlace.filterMayContain(hash) != every) {
                      return !every;
                    }
                  }
                  return every;
                }

                @Override
                public float matchCost() {
                  return 4 * probed.length; // a cache line per term
                }
              };
        } else {
          probe =
              new TwoPhaseIterator(filters) {
                @Override
                public boolean matches() throws IOException {
                  BytesRef filter = filters.binaryValue(); // a segment written before session 28
                  for (long hash : hashes) {
                    if (TermFilter.mayContain(filter, hash) != every) {
                      return !every;
                    }
                  }
                  return every;
                }

                @Override
                public float matchCost() {
                  return 4 * hashes.length; // a copy of the filter
                }
              };
        }
        return new DefaultScorerSupplier(new ConstantScoreScorer(score(), scoreMode, probe));
      }

      @Override
      public boolean isCacheable(LeafReaderContext context) {
        return DocValues.isCacheable(context, BlockDocuments.TERM_FILTER);
      }
    };
  }

  /**
   * The hashes a block's filter is asked for in a segment, its common terms left out (a "maybe" in
   * every block); null when every block matches: all of them common ({@link #all}) or any ({@link
   * #any}).
   */
  private long[] probed(TermFilterValues segment) {
    long[] probed = new long[hashes.length];
    int n = 0;
    for (long hash : hashes) {
      if (!segment.isCommon(hash)) {
        probed[n++] = hash;
      } else if (!every) {
        return null;
      }
    }
    return n == 0 ? null : Arrays.copyOf(probed, n);
  }

  @Override
  public void visit(QueryVisitor visitor) {
    visitor.visitLeaf(this);
  }

  @Override
  public String toString(String field) {
    return description;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof TermFilterQuery that
        && every == that.every
        && Arrays.equals(hashes, that.hashes)
        && description.equals(that.description);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(hashes) + Boolean.hashCode(every);
  }
}
