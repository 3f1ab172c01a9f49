package io.quarry.server.search;

import io.quarry.codecs.store.EventFields;
import io.quarry.codecs.tokens.Segmenter;
import io.quarry.ql.ast.ComparisonOperator;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.exec.Cidr;
import io.quarry.ql.exec.Values;
import io.quarry.ql.exec.Wildcard;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.WildcardQuery;

/**
 * Translates a search expression into a Lucene query over the term index that matches every event
 * the expression matches. When the query matches exactly those events the translation says so, and
 * the per-event check is skipped.
 *
 * <ul>
 *   <li>a word without breakers is one term: exact; with breakers, all of its parts: a superset;
 *   <li>a word with wildcards and no breakers is a wildcard over terms: exact;
 *   <li>{@code host=}, {@code source=}, {@code sourcetype=} are keyword lookups: exact;
 *   <li>{@code f=v} for other fields is "an index-time value v, or, in events without an index-time
 *       {@code f}, the parts of v in {@code _raw}": a superset, because a search-time field's value
 *       always appears in the raw text;
 *   <li>{@code NOT} of an exact query is exact; anything else untranslatable matches everything.
 * </ul>
 *
 * <p>Over an index that stores events as blocks ({@code format: blocks}) every translation is
 * {@linkplain Translation#perEvent inexact}: the query finds candidate blocks and each of their
 * events is checked.
 *
 * <p>An inexact translation may also know a <em>sure</em> query: documents that surely match, such
 * as those whose index-time {@code f} equals {@code v} for {@code f=v}, or whose index-time numbers
 * compare so for {@code f>=n}. A scan may count those without reading them (and check the rest).
 */
final class LuceneTranslator {
  /**
   * Integers as written in raw text; other numbers compare numerically and may be written
   * differently.
   */
  static final Pattern PLAIN_INTEGER = Pattern.compile("-?(0|[1-9]\\d{0,17})");

  static final Set<String> KEYWORD_FIELDS =
      Set.of(EventFields.HOST, EventFields.SOURCE, EventFields.SOURCETYPE);

  /**
   * A query and whether it is exact, and a query whose every match surely matches the expression
   * (null: none known) — for an inexact translation, the candidates that need no per-event check.
   */
  record Translation(Query query, boolean exact, Query sure) {
    static final Translation ALL = new Translation(new MatchAllDocsQuery(), false, null);

    /** An exact translation: it is its own sure part. */
    Translation(Query query, boolean exact) {
      this(query, exact, exact ? query : null);
    }

    boolean matchesAll() {
      return query instanceof MatchAllDocsQuery;
    }

    /**
     * The same candidates, every one checked against the event and none sure: the translation for
     * indexes that store events as blocks, where a term finds a block of events, not an event. A
     * filter that surely matches every event ({@code *}) stays exact: every event of every block.
     */
    Translation perEvent() {
      return exact && matchesAll() ? this : new Translation(query, false, null);
    }
  }

  private LuceneTranslator() {}

  static Translation translate(SearchExpression expression) {
    return switch (expression) {
      case SearchExpression.Term term when term.directive() != SearchExpression.Directive.NONE ->
          // the index holds the whole token too (and its parts): a superset, so the
          // event check decides (whole token for TERM, the case for CASE)
          inexact(term(term.text(), false));
      case SearchExpression.Term term -> term(term.text(), term.phrase());
      case SearchExpression.Comparison c ->
          switch (c.operator()) {
            case EQ -> equality(c.field(), c.value());
            case NE -> Translation.ALL;
            case LT, LE, GT, GE -> ordering(c.field(), c.operator(), c.value());
          };
      case SearchExpression.In in ->
          or(in.values().stream().map(v -> equality(in.field(), v)).toList());
      case SearchExpression.And and ->
          and(and.operands().stream().map(LuceneTranslator::translate).toList());
      case SearchExpression.Or or ->
          or(or.operands().stream().map(LuceneTranslator::translate).toList());
      case SearchExpression.SubsearchTerm sub ->
          throw new IllegalStateException(
              sub.subsearch().describe() + " was not run before the search (a planner bug)");
      case SearchExpression.Not not -> {
        Translation inner = translate(not.operand());
        if (!inner.exact()) {
          // what the inner query does not match surely does not match the inner expression
          yield new Translation(
              new MatchAllDocsQuery(), false, inner.matchesAll() ? null : excluding(inner.query()));
        }
        yield new Translation(excluding(inner.query()), true);
      }
    };
  }

  /** Every document but those {@code query} matches. */
  private static Query excluding(Query query) {
    return new BooleanQuery.Builder()
        .add(new MatchAllDocsQuery(), BooleanClause.Occur.FILTER)
        .add(query, BooleanClause.Occur.MUST_NOT)
        .build();
  }

  private static Translation term(String text, boolean phrase) {
    if (!phrase && Wildcard.hasWildcard(text)) {
      String withoutStars = text.replace("*", "");
      if (withoutStars.isEmpty()) {
        // a bare * matches every event: no per-event check needed
        return new Translation(new MatchAllDocsQuery(), true);
      }
      if (Segmenter.isSingleTerm(withoutStars)) {
        return new Translation(
            new WildcardQuery(new Term(EventFields.TOKENS, text.toLowerCase(Locale.ROOT))), true);
      }
      return Translation.ALL;
    }
    if (!phrase && Segmenter.isSingleTerm(text)) {
      return new Translation(tokenQuery(text.toLowerCase(Locale.ROOT)), true);
    }
    return allParts(text);
  }

  /** The same index query, with every match checked against the event. */
  private static Translation inexact(Translation translation) {
    return new Translation(translation.query(), false);
  }

  private static Translation allParts(String text) {
    List<String> parts = Segmenter.requiredParts(text);
    if (parts.isEmpty()) {
      return Translation.ALL;
    }
    BooleanQuery.Builder all = new BooleanQuery.Builder();
    for (String part : parts) {
      all.add(tokenQuery(part), BooleanClause.Occur.FILTER);
    }
    return new Translation(all.build(), false);
  }

  private static Translation equality(String field, String value) {
    if (field.startsWith("_")
        || field.equals(EventFields.INDEX)
        || DateFields.is(field) // written nowhere in the text: date_wday=monday checks each event
        || Cidr.parse(value).isPresent()) {
      return Translation.ALL;
    }
    boolean numeric = looksNumeric(value);
    if (KEYWORD_FIELDS.contains(field)) {
      if (numeric) {
        return Translation.ALL; // compared numerically: "0404" equals "404"
      }
      Term term = new Term(EventFields.keywordField(field), value.toLowerCase(Locale.ROOT));
      return new Translation(
          Wildcard.hasWildcard(value) ? new WildcardQuery(term) : new TermQuery(term), true);
    }
    if (Wildcard.hasWildcard(value) || (numeric && !PLAIN_INTEGER.matcher(value).matches())) {
      return Translation.ALL;
    }
    // Like Splunk, a plain integer is looked up as written; "404.0" in the raw text is not found.
    Translation inRaw = allParts(value);
    if (inRaw.matchesAll()) {
      return Translation.ALL;
    }
    String indexField = EventFields.keywordField(field);
    Query indexTime = new TermQuery(new Term(indexField, value.toLowerCase(Locale.ROOT)));
    // The raw text only matters for events without an index-time value: an event's index-time
    // value is its value (read from doc values, never extracted), so one that differs never
    // matches, whatever the text holds.
    // Where every event has one (a sourcetype's index-time field) that part rewrites to nothing
    // and the query is the index-time term alone: no event is read to check it.
    Query searchTime =
        new BooleanQuery.Builder()
            .add(inRaw.query(), BooleanClause.Occur.FILTER)
            .add(new LacksFieldQuery(field), BooleanClause.Occur.FILTER)
            .build();
    // an index-time value that equals surely matches (the check compares the same value)
    return new Translation(
        new BooleanQuery.Builder()
            .add(indexTime, BooleanClause.Occur.SHOULD)
            .add(searchTime, BooleanClause.Occur.SHOULD)
            .build(),
        false,
        indexTime);
  }

  /**
   * {@code f < n} (and {@code <=}, {@code >}, {@code >=}) with a number: the events whose
   * index-time {@code f} has a term that could compare so, or that have no index-time {@code f} at
   * all (theirs may be search-time). A superset; what it saves is the per-event check of every
   * event that has an index-time value outside the range ({@code status>=500} over access logs: 96
   * % of them).
   */
  private static Translation ordering(String field, ComparisonOperator operator, String value) {
    if (field.startsWith("_")
        || field.equals(EventFields.INDEX)
        || KEYWORD_FIELDS.contains(field)
        || !looksNumeric(value)) {
      return Translation.ALL;
    }
    String indexField = EventFields.keywordField(field);
    Query withoutIndexTime = new LacksFieldQuery(field);
    double number = Values.toNumber(value);
    return new Translation(
        new BooleanQuery.Builder()
            .add(new NumericTermsQuery(indexField, operator, number), BooleanClause.Occur.SHOULD)
            .add(withoutIndexTime, BooleanClause.Occur.SHOULD)
            .build(),
        false,
        new NumericTermsQuery(indexField, operator, number, true));
  }

  static boolean looksNumeric(String value) {
    return !Double.isNaN(Values.toNumber(value));
  }

  private static Query tokenQuery(String term) {
    return new TermQuery(new Term(EventFields.TOKENS, term));
  }

  /** Sure where every operand is sure. */
  private static Translation and(List<Translation> operands) {
    BooleanQuery.Builder builder = new BooleanQuery.Builder();
    BooleanQuery.Builder sure = new BooleanQuery.Builder();
    boolean exact = true;
    boolean any = false;
    boolean allSure = true;
    for (Translation operand : operands) {
      exact &= operand.exact();
      if (!operand.matchesAll()) {
        builder.add(operand.query(), BooleanClause.Occur.FILTER);
        any = true;
      }
      if (operand.sure() == null) {
        allSure = false;
      } else {
        sure.add(operand.sure(), BooleanClause.Occur.FILTER);
      }
    }
    if (exact) {
      return any ? new Translation(builder.build(), true) : Translation.ALL;
    }
    return new Translation(
        any ? builder.build() : new MatchAllDocsQuery(), false, allSure ? sure.build() : null);
  }

  /** Sure where any operand is sure. */
  private static Translation or(List<Translation> operands) {
    BooleanQuery.Builder builder = new BooleanQuery.Builder();
    BooleanQuery.Builder sure = new BooleanQuery.Builder();
    boolean exact = true;
    boolean anyMatchesAll = false;
    boolean anySure = false;
    for (Translation operand : operands) {
      anyMatchesAll |= operand.matchesAll();
      exact &= operand.exact();
      builder.add(operand.query(), BooleanClause.Occur.SHOULD);
      if (operand.sure() != null) {
        sure.add(operand.sure(), BooleanClause.Occur.SHOULD);
        anySure = true;
      }
    }
    if (exact) {
      return new Translation(anyMatchesAll ? new MatchAllDocsQuery() : builder.build(), true);
    }
    return new Translation(
        anyMatchesAll ? new MatchAllDocsQuery() : builder.build(),
        false,
        anySure ? sure.build() : null);
  }
}
