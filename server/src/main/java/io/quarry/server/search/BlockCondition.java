package io.quarry.server.search;

import io.quarry.codecs.store.BlockValueCodes;
import io.quarry.codecs.store.BlockValueCounts;
import io.quarry.codecs.store.EventFields;
import io.quarry.ql.ast.SearchExpression;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.index.LeafReader;

/**
 * A search filter as the block layout can decide it per block from its {@link BlockValueCounts}
 * (issue 23), without reading events: a conjunction of <em>clauses</em>, each on one field, that
 * says of a value of the field (by its lower-cased keyword term) whether an event with it surely
 * matches ({@link #SURE}), surely does not ({@link #NO}) or needs its check ({@link #MAYBE}) — the
 * same answer {@link LuceneTranslator}'s sure part and candidates give the event layout for an
 * event that has an index-time value: {@code f=v} (a value equal to {@code v}: sure; any other: no,
 * as the event layout does not find it), {@code f<n} and the other orderings (a number that
 * compares so: sure; another number: no; a text: maybe), {@code IN}, and {@code NOT}, {@code AND}
 * and {@code OR} of clauses on one field; {@code host=}, {@code source=}, {@code sourcetype=}
 * without wildcards. Anything else (a bare term, a wildcard, two fields under one {@code OR}) is no
 * block condition: such blocks are read.
 *
 * <p>Per block ({@link Segment#evaluate}): a clause decides a block when the block has the field's
 * counts and every event has exactly one value (the counts add up to its events); the block is then
 * {@link #NONE} when some clause says no of all its values, {@link #ALL} when every clause says
 * sure of all, or mixed on one field (the sure values' counts are its matching events); anything
 * else — a maybe, two mixed fields, multivalued events, a field some event lacks — is {@link
 * #READ}.
 */
final class BlockCondition {
  static final byte NO = 0;
  static final byte MAYBE = 1;
  static final byte SURE = 2;

  /** A block verdict: read its events. */
  static final int READ = -1;

  /** A block verdict: no event matches. */
  static final int NONE = -2;

  /** A block verdict: every event matches. */
  static final int ALL = -3;

  /** A per-value test of one field: {@link #SURE}, {@link #NO} or {@link #MAYBE}. */
  @FunctionalInterface
  interface Test {
    /**
     * @param term the value's lower-cased keyword term, or null when it has none (too long)
     */
    byte of(String term);
  }

  /** Every event matches (no filter). */
  static final BlockCondition ALWAYS = new BlockCondition(Map.of());

  private final Map<String, Test> clauses;

  /** Whether the searched blocks have value counts of a field (all: not known to lack them). */
  private final java.util.function.Predicate<String> counted;

  /** Whether the searched blocks have value codes of a field ({@link BlockValueCodes}). */
  private final java.util.function.Predicate<String> coded;

  private BlockCondition(Map<String, Test> clauses) {
    this(clauses, field -> true, field -> true);
  }

  private BlockCondition(
      Map<String, Test> clauses,
      java.util.function.Predicate<String> counted,
      java.util.function.Predicate<String> coded) {
    this.clauses = clauses;
    this.counted = counted;
    this.coded = coded;
  }

  /**
   * This condition over blocks that have value counts only of the fields {@code counted} says, and
   * value codes only of those {@code coded} says.
   */
  BlockCondition countedFields(
      java.util.function.Predicate<String> counted, java.util.function.Predicate<String> coded) {
    return new BlockCondition(clauses, counted, coded);
  }

  /** The block condition of a search filter (none: {@link #ALWAYS}), or null when it has none. */
  static BlockCondition of(Optional<SearchExpression> filter) {
    if (filter.isEmpty()) {
      return ALWAYS;
    }
    Map<String, Test> clauses = new LinkedHashMap<>();
    return BlockClauses.conjunction(filter.get(), clauses) ? new BlockCondition(clauses) : null;
  }

  /** The fields of the clauses, in order. */
  java.util.List<String> fields() {
    return java.util.List.copyOf(clauses.keySet());
  }

  /** The test of the clause on {@code field}. */
  Test test(String field) {
    return clauses.get(field);
  }

  /**
   * Whether a count by {@code field} can be taken from blocks under this condition: every clause is
   * on {@code field}, on a default field (one value per batch, so rarely mixed in a block), or on a
   * field that, like {@code field}, has value codes (a block mixed on it is counted event by event
   * from both fields' codes).
   */
  boolean countsAlong(String field) {
    return counted.test(field)
        && clauses.keySet().stream()
            .allMatch(
                f ->
                    f.equals(field)
                        || LuceneTranslator.KEYWORD_FIELDS.contains(f)
                        || (coded.test(f) && coded.test(field)));
  }

  /** This condition over one segment of block documents. */
  Segment segment(LeafReader reader) {
    return new Segment(reader);
  }

  /**
   * The condition over one segment: the value counts of its fields, each value's test decided once
   * per ordinal.
   */
  final class Segment {
    private final LeafReader reader;
    private final Map<String, FieldCounts> fields = new HashMap<>();
    private final FieldCounts[] clauseCounts;
    private final Test[] tests;
    private FieldCounts mixed;

    Segment(LeafReader reader) {
      this.reader = reader;
      this.clauseCounts = new FieldCounts[clauses.size()];
      this.tests = clauses.values().toArray(Test[]::new);
    }

    /** The counts of {@code field} in this segment (shared with the clauses), or null. */
    FieldCounts counts(String field) throws IOException {
      FieldCounts counts = fields.get(field);
      if (counts == null && !fields.containsKey(field)) {
        BlockValueCounts opened = BlockValueCounts.open(reader, field);
        counts =
            opened == null ? null : new FieldCounts(opened, BlockValueCodes.open(reader, field));
        fields.put(field, counts);
      }
      return counts;
    }

    /**
     * Block {@code doc}'s verdict: {@link #READ}, {@link #NONE}, {@link #ALL}, or the index of the
     * one clause it is mixed on ({@link #mixed}: which values surely match).
     */
    int evaluate(int doc, int events) throws IOException {
      int i = 0;
      int mixedAt = ALL;
      boolean none = false;
      for (String field : clauses.keySet()) {
        FieldCounts counts = clauseCounts[i];
        if (counts == null) {
          counts = counts(field);
          if (counts == null) {
            return READ;
          }
          clauseCounts[i] = counts;
        }
        if (!counts.at(doc) || counts.values.total() != events) {
          return READ; // some event lacks the field or has several values
        }
        byte least = SURE;
        byte most = NO;
        for (int v = 0; v < counts.values.size(); v++) {
          byte verdict = counts.test(tests[i], counts.values.ord(v));
          if (verdict == MAYBE) {
            return READ; // an event the check decides
          }
          least = (byte) Math.min(least, verdict);
          most = (byte) Math.max(most, verdict);
        }
        if (most == NO) {
          none = true;
        } else if (least == NO) { // some sure, some not
          if (mixedAt != ALL) {
            return READ; // two fields decide per event: their combinations are unknown
          }
          mixedAt = i;
          mixed = counts;
          mixedTest = tests[i];
        }
        i++;
      }
      return none ? NONE : mixedAt;
    }

    private Test mixedTest;

    /**
     * Whether the current block's ordinal {@code ord} of the mixed clause's field surely matches.
     */
    boolean mixedSure(long ord) throws IOException {
      return mixed.test(mixedTest, ord) == SURE;
    }

    /**
     * Whether each of the current block's values of the mixed field surely matches, by its code (an
     * array reused for the next block).
     */
    boolean[] mixedSureCodes() throws IOException {
      int size = mixed.values.size();
      if (sureByCode.length < size) {
        sureByCode = new boolean[size];
      }
      for (int v = 0; v < size; v++) {
        sureByCode[v] = mixedSure(mixed.values.ord(v));
      }
      return sureByCode;
    }

    private boolean[] sureByCode = new boolean[0];

    /** The counts of the field the last mixed verdict was on. */
    FieldCounts mixed() {
      return mixed;
    }

    /**
     * The blocks whose events the fields' codes selected sixteen at a time so far ({@link
     * BlockValueCodes#nibbleSelects}).
     */
    long wordSelects() {
      long selects = 0;
      for (FieldCounts counts : fields.values()) {
        selects += counts == null ? 0 : counts.codes.nibbleSelects();
      }
      return selects;
    }
  }

  /**
   * One field's value counts in a segment, positioned on a block once however many users ask, with
   * each ordinal's test result decided once.
   */
  static final class FieldCounts {
    final BlockValueCounts values;
    private final BlockValueCodes codes;
    private int doc = -1;
    private boolean present;
    private final Map<Test, byte[]> decided = new HashMap<>();

    FieldCounts(BlockValueCounts values, BlockValueCodes codes) {
      this.values = values;
      this.codes = codes;
    }

    /**
     * Writes into {@code into} the current block's events whose value's index among the block's
     * values is {@code wanted} ({@link BlockValueCodes#select}); returns how many, or -1 when the
     * block has no codes (its events are read). The block must be the one {@link #at} moved to,
     * with its counts.
     */
    int select(int doc, int events, boolean[] wanted, int[] into) throws IOException {
      if (!coded(doc, events)) {
        return -1;
      }
      if (values.size() > 1) {
        return codes.select(events, wanted, into);
      }
      if (!wanted[0]) {
        return 0;
      }
      for (int e = 0; e < events; e++) {
        into[e] = e;
      }
      return events;
    }

    /**
     * Whether the current block has codes, each read alone by {@link #codeAt} — for a field counted
     * at the few events a filter on another field keeps. The block must be the one {@link #at}
     * moved to, with its counts.
     */
    boolean coded(int doc, int events) throws IOException {
      if (doc != positionedDoc) {
        positionedDoc = doc;
        // codes exist only where every event has one value (BlockValueCodes): one value's
        // block has none, so its count says
        positioned =
            values.size() == 1
                ? values.total() == events
                : codes.advance(doc, events, values.size());
      }
      return positioned;
    }

    /**
     * Writes every event's code of block {@code doc} into {@code into}; false when the block has no
     * codes ({@link #coded}). The block must be the one {@link #at} moved to, with its counts.
     */
    boolean codes(int doc, int events, int[] into) throws IOException {
      if (!coded(doc, events)) {
        return false;
      }
      if (values.size() == 1) {
        java.util.Arrays.fill(into, 0, events, 0);
      } else {
        codes.decode(events, into);
      }
      return true;
    }

    /**
     * The codes of the block {@link #coded} moved to, for {@link
     * io.quarry.codecs.store.CodePairCounts}; null for a block of one value (it has none: every
     * code is 0).
     */
    BlockValueCodes packed() {
      return values.size() == 1 ? null : codes;
    }

    /** Event {@code e}'s code in the block {@link #coded} moved to. */
    int codeAt(int e) throws IOException {
      return values.size() == 1 ? 0 : codes.code(e);
    }

    private int positionedDoc = -1;
    private boolean positioned;

    /** Moves to block {@code doc}; false when it has no counts of the field. */
    boolean at(int doc) throws IOException {
      if (doc != this.doc) {
        this.doc = doc;
        present = values.advanceExact(doc);
      }
      return present;
    }

    private Test lastTest; // a block asks of one test many times in a row
    private byte[] lastDecided;

    private byte[] decided(Test test) {
      lastDecided =
          decided.computeIfAbsent(
              test,
              t -> {
                byte[] fresh = new byte[(int) Math.min(values.valueCount(), 1 << 22)];
                java.util.Arrays.fill(fresh, (byte) -1);
                return fresh;
              });
      lastTest = test;
      return lastDecided;
    }

    byte test(Test test, long ord) throws IOException {
      byte[] byOrd = test == lastTest ? lastDecided : decided(test);
      if (ord >= byOrd.length) {
        return test.of(EventFields.keywordTerm(values.dictionary().lookupOrd(ord).utf8ToString()));
      }
      byte verdict = byOrd[(int) ord];
      if (verdict < 0) {
        verdict =
            test.of(EventFields.keywordTerm(values.dictionary().lookupOrd(ord).utf8ToString()));
        byOrd[(int) ord] = verdict;
      }
      return verdict;
    }
  }
}
