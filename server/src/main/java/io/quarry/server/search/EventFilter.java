package io.quarry.server.search;

import io.quarry.codecs.store.AsciiText;
import io.quarry.codecs.store.EventRun;
import io.quarry.codecs.store.StoredEvent;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.eval.SearchFilter;
import io.quarry.ql.exec.SearchMatch;
import io.quarry.ql.exec.SearchTerm;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The per-event check of a search whose index query is not exact (an inexact translation, and every
 * search over blocks: a term finds a block, not an event), over the source's pages instead of one
 * event at a time. Compiled once per search ({@link #of}); each page source takes its own {@link
 * Check}.
 *
 * <p>The search's bare words and phrases are decided while the event is visited, on its raw text
 * ({@link RawTerms.OnBytes}, worked out once per search: a plain word or phrase on the journal's
 * ASCII bytes, without making a {@code String} or its lower case), and an event whose words alone
 * decide against it is dropped before any of its fields is read. What the words leave open — the
 * field comparisons — is decided when the source's page is built: the fields the comparisons read
 * ({@link #fields}) are columns of that page, loaded as every other column is, and the comparisons
 * ({@link SearchFilter}, with {@code SearchValues}' semantics) select the page's positions. An
 * expression of words alone never waits for a page.
 */
final class EventFilter {
  private final Node root;
  private final List<SearchTerm> terms;
  private final RawTerms.OnBytes[] onBytes; // the terms as the journal's bytes decide them
  private final List<String> fields;

  private EventFilter(Node root, List<SearchTerm> terms, List<String> fields) {
    this.root = root;
    this.terms = terms;
    this.onBytes = terms.stream().map(RawTerms.OnBytes::of).toArray(RawTerms.OnBytes[]::new);
    this.fields = fields;
  }

  /** The check of {@code expression} (no subsearch left in it: those run before the search). */
  static EventFilter of(SearchExpression expression) {
    List<SearchTerm> terms = new ArrayList<>();
    Set<String> fields = new LinkedHashSet<>();
    Node root = node(expression, terms, fields);
    return new EventFilter(root, List.copyOf(terms), List.copyOf(fields));
  }

  /**
   * The fields the comparisons read, each event's own (as stored or extracted, before any command
   * changes it): the source loads them as columns of its pages. Empty when words alone decide.
   */
  List<String> fields() {
    return fields;
  }

  /** A new check for one page source (one thread) of pages of at most {@code pageSize}. */
  Check check(int pageSize) {
    return new Check(pageSize);
  }

  private static Node node(
      SearchExpression expression, List<SearchTerm> terms, Set<String> fields) {
    if (!hasTerm(expression)) {
      fields.addAll(SearchMatch.fields(expression));
      return new Fields(expression);
    }
    return switch (expression) {
      case SearchExpression.Term term -> {
        terms.add(new SearchTerm(term.text(), term.phrase(), term.directive()));
        yield new Word(terms.size() - 1);
      }
      case SearchExpression.And and -> new Combined(operands(and.operands(), terms, fields), true);
      case SearchExpression.Or or -> new Combined(operands(or.operands(), terms, fields), false);
      case SearchExpression.Not not -> new Negated(node(not.operand(), terms, fields));
      default -> throw new IllegalStateException("no words in " + expression);
    };
  }

  private static Node[] operands(
      List<SearchExpression> operands, List<SearchTerm> terms, Set<String> fields) {
    return operands.stream().map(o -> node(o, terms, fields)).toArray(Node[]::new);
  }

  private static boolean hasTerm(SearchExpression expression) {
    return switch (expression) {
      case SearchExpression.Term term -> true;
      case SearchExpression.And and -> and.operands().stream().anyMatch(EventFilter::hasTerm);
      case SearchExpression.Or or -> or.operands().stream().anyMatch(EventFilter::hasTerm);
      case SearchExpression.Not not -> hasTerm(not.operand());
      default -> false;
    };
  }

  /** An event's answer while it is visited: its words known, its fields not yet read. */
  private static final byte FALSE = 0;

  private static final byte TRUE = 1;
  private static final byte OPEN = 2;

  /** A part of the expression, decided per event ({@link #decide}) and per page ({@link #test}). */
  private sealed interface Node {
    /** The answer from the event's words alone ({@link Check#word}), or {@link #OPEN}. */
    byte decide(Check check);

    /** Whether each of the page's first {@code size} positions matches: {@code into[p]}. */
    void test(Check check, Page page, int size, boolean[] into);
  }

  /** A bare word or phrase: {@code terms[index]} in the event's raw text. */
  private record Word(int index) implements Node {
    @Override
    public byte decide(Check check) {
      return check.word(index) ? TRUE : FALSE;
    }

    @Override
    public void test(Check check, Page page, int size, boolean[] into) {
      System.arraycopy(check.words[index], 0, into, 0, size);
    }
  }

  /** A part without words: field comparisons, decided over the page's columns. */
  private static final class Fields implements Node {
    private final SearchExpression expression;

    Fields(SearchExpression expression) {
      this.expression = expression;
    }

    @Override
    public byte decide(Check check) {
      return OPEN;
    }

    @Override
    public void test(Check check, Page page, int size, boolean[] into) {
      check.filter(this).matches(page, into);
    }
  }

  private record Negated(Node operand) implements Node {
    @Override
    public byte decide(Check check) {
      byte answer = operand.decide(check);
      return answer == OPEN ? OPEN : answer == TRUE ? FALSE : TRUE;
    }

    @Override
    public void test(Check check, Page page, int size, boolean[] into) {
      operand.test(check, page, size, into);
      for (int p = 0; p < size; p++) {
        into[p] = !into[p];
      }
    }
  }

  /** Every operand ({@code all}) or any; no operand: {@code all} (as {@code NOT()} is nothing). */
  private record Combined(Node[] operands, boolean all) implements Node {
    @Override
    public byte decide(Check check) {
      byte answer = all ? TRUE : FALSE;
      for (Node operand : operands) {
        byte each = operand.decide(check);
        if (each == (all ? FALSE : TRUE)) {
          return each; // decided, whatever the rest hold
        }
        if (each == OPEN) {
          answer = OPEN;
        }
      }
      return answer;
    }

    @Override
    public void test(Check check, Page page, int size, boolean[] into) {
      Arrays.fill(into, 0, size, all);
      boolean[] each = check.scratch(size);
      for (Node operand : operands) {
        operand.test(check, page, size, each);
        for (int p = 0; p < size; p++) {
          into[p] = all ? into[p] && each[p] : into[p] || each[p];
        }
      }
      check.release(each);
    }
  }

  /**
   * The check of one page source: by position in the page being built, whether the admitted event
   * matches whatever its fields hold, and its words' answers for the test of those that wait.
   */
  final class Check {
    private final boolean[][] words; // per word, per position (read only where fields decide)
    private final byte[] known = new byte[terms.size()]; // the visited event's words, OPEN: unread
    private final boolean[] decided; // per position: matches whatever its fields hold
    private final java.util.Map<Fields, SearchFilter> filters = new java.util.IdentityHashMap<>();
    private final List<boolean[]> spare = new ArrayList<>();
    private boolean[] matches = new boolean[0];
    private int open; // positions of the page whose fields decide
    private StoredEvent event;
    private RawTerms.Text text; // the event's raw text as a String, made when a word needs it
    private EventRun run; // the run whose chunk's words are known ({@link #runWords})
    private int runFrom;
    private int runEvent = -1; // the chunk's event being admitted: its StoredEvent made on need
    private final byte[][] runWords; // per word, per event of the chunk: 1, 0 or UNDECIDED

    private Check(int pageSize) {
      this.words = new boolean[terms.size()][pageSize];
      this.decided = new boolean[pageSize];
      this.runWords = new byte[terms.size()][Math.min(pageSize, SearchControl.EVERY)];
    }

    /** Whether the expression has words (bare words or phrases), which read the texts. */
    boolean hasWords() {
      return !terms.isEmpty();
    }

    /**
     * Works out the words of events {@code [from, from + count)} of {@code run} (an ASCII run;
     * {@code count} at most a page and at most {@link SearchControl#EVERY}) at once, each word's
     * letters searched for once over the texts ({@link RawTerms.OnBytes#answers}), for {@link
     * #admit(int, int)}.
     */
    void runWords(EventRun run, int from, int count) {
      this.run = run;
      this.runFrom = from;
      for (int t = 0; t < terms.size(); t++) {
        if (terms.get(t).pattern() != null) {
          Arrays.fill(runWords[t], 0, count, (byte) RawTerms.UNDECIDED); // the text decides
        } else {
          onBytes[t].answers(run, from, count, runWords[t]);
        }
      }
    }

    /**
     * As {@link #admit(StoredEvent, int)} for event {@code e} of the chunk {@link #runWords} worked
     * out: its words known from there, its {@code StoredEvent} made only where a word's answer is
     * the text's (returned by {@link #admitted} for the source to reuse).
     */
    boolean admit(int e, int position) {
      for (int t = 0; t < known.length; t++) {
        byte answer = runWords[t][e];
        known[t] = answer == 1 ? TRUE : answer == 0 ? FALSE : OPEN;
      }
      runEvent = e;
      event = null; // the last one's, if the source did not take it
      try {
        return decide(position);
      } finally {
        this.text = null;
        runEvent = -1;
      }
    }

    /** The event of a run the last {@link #admit(int, int)} made, else null; cleared once read. */
    StoredEvent admitted() {
      StoredEvent made = event;
      event = null;
      return made;
    }

    private StoredEvent event() {
      if (event == null && runEvent >= 0) {
        event = run.event(runFrom + runEvent);
      }
      return event;
    }

    /**
     * Whether the event, at {@code position} of the page being built, may match: false when its
     * words decide against it (the source skips it unread).
     */
    boolean admit(StoredEvent event, int position) {
      this.event = event;
      try {
        Arrays.fill(known, OPEN);
        return decide(position);
      } finally {
        this.event = null;
        this.text = null;
      }
    }

    /** Decides the event at {@code position} from its words, {@link #known} as far as known. */
    private boolean decide(int position) {
      byte answer = root.decide(this);
      if (answer == FALSE) {
        return false;
      }
      decided[position] = answer == TRUE;
      if (answer == OPEN) {
        open++;
        for (int i = 0; i < known.length; i++) { // the page's test reads every word
          words[i][position] = word(i);
        }
      }
      return true;
    }

    /** Whether the page needs {@link #select}: some admitted event's fields decide. */
    boolean open() {
      return open > 0;
    }

    /**
     * Writes the positions of the page of {@code size} admitted events that match into {@code
     * positions}, in order, deciding the open ones over {@code fields} (a page of {@link
     * EventFilter#fields}' columns); returns how many. The next page starts afresh.
     */
    int select(Page fields, int size, int[] positions) {
      if (matches.length < size) {
        matches = new boolean[size];
      }
      root.test(this, fields, size, matches);
      int count = 0;
      for (int p = 0; p < size; p++) {
        if (decided[p] || matches[p]) {
          positions[count++] = p;
        }
      }
      open = 0;
      return count;
    }

    private boolean word(int index) {
      if (known[index] == OPEN) {
        known[index] = matches(index) ? TRUE : FALSE;
      }
      return known[index] == TRUE;
    }

    /** Whether the visited event's raw text holds term {@code index}. */
    private boolean matches(int index) {
      SearchTerm term = terms.get(index);
      StoredEvent event = event();
      if (term.pattern() == null && event.rawText() instanceof AsciiText raw) {
        RawTerms.OnBytes bytes = onBytes[index];
        int held = bytes.matches(raw.array(), raw.offset(), raw.length());
        if (held != RawTerms.UNDECIDED) {
          return held == 1; // a plain word or phrase on the journal's bytes: no String made
        }
        if (bytes.surelyAbsent(raw.array(), raw.offset(), raw.length())) {
          return false; // TERM() or CASE() of a word the event lacks
        }
      }
      if (text == null) {
        text = new RawTerms.Text(event.raw());
      }
      return text.matches(term);
    }

    private SearchFilter filter(Fields part) {
      return filters.computeIfAbsent(part, p -> SearchFilter.compile(p.expression));
    }

    private boolean[] scratch(int size) {
      boolean[] array = spare.isEmpty() ? new boolean[size] : spare.remove(spare.size() - 1);
      return array.length < size ? new boolean[size] : array;
    }

    private void release(boolean[] array) {
      spare.add(array);
    }
  }
}
