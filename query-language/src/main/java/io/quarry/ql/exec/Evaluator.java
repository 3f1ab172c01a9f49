package io.quarry.ql.exec;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Objects;

/**
 * A search's expression context: the time and zone, the lookup tables, the search's resources
 * (memory, cancellation, warnings), how terms match raw text, and {@link #apply}/{@link #bind} —
 * every eval function applied to its arguments' values, as its {@link FunctionCalls} answer them.
 * Expressions themselves are compiled once per driver into evaluators over pages ({@code
 * io.quarry.ql.eval.ExpressionCompiler}, whose nodes give these semantics; no expression is walked
 * per row). Values are null, {@code Long}, {@code Double}, {@code String}, {@code Boolean}, or a
 * {@code List} of two or more of those (a multivalue). Field values that look like numbers act as
 * numbers; {@code _time} is epoch seconds. Null propagates: arithmetic, comparison and string
 * functions of a null are null, and a null condition is false. {@code +} adds numbers and
 * concatenates strings; {@code .} always concatenates. Comparisons are numeric when both sides are
 * numbers, otherwise case-sensitive text comparisons; a multivalue compares true when any of its
 * values does.
 */
public final class Evaluator {
  private final Instant now;
  private final ZoneId zone;
  private final LookupTable.Source lookups;
  private final LookupTable.Writer lookupWriter;

  /** Every eval function applied to its arguments' values ({@link #apply}, {@link #bind}). */
  private final FunctionCalls functions;

  private SearchResources resources = SearchResources.unbounded();
  private RawTermMatcher rawTerms; // null: a position's raw text cannot be searched
  private SearchInfo searchInfo = SearchInfo.NONE;
  private MetricAppend metricAppend = MetricAppend.NONE;

  public Evaluator(Instant now, ZoneId zone) {
    this(now, zone, LookupTable.Source.NONE);
  }

  /** An evaluator whose searches can read lookup tables from {@code lookups}. */
  public Evaluator(Instant now, ZoneId zone, LookupTable.Source lookups) {
    this(now, zone, lookups, LookupTable.Writer.NONE);
  }

  /** An evaluator whose searches read lookup tables and write them ({@code outputlookup}). */
  public Evaluator(
      Instant now, ZoneId zone, LookupTable.Source lookups, LookupTable.Writer lookupWriter) {
    this.now = now;
    this.zone = zone;
    this.lookups = Objects.requireNonNull(lookups, "lookups is null");
    this.lookupWriter = Objects.requireNonNull(lookupWriter, "lookupWriter is null");
    this.functions = new FunctionCalls(now, zone, () -> resources.stopped());
  }

  /** The search's time: what {@code now()} returns. */
  public Instant now() {
    return now;
  }

  /** This evaluator, its search's operators using {@code runtime} (memory, cancellation). */
  public Evaluator withResources(SearchResources runtime) {
    this.resources = Objects.requireNonNull(runtime, "runtime is null");
    return this;
  }

  /** This evaluator, matching search terms in a page's {@code _raw} with {@code matcher}. */
  public Evaluator withRawTermMatcher(RawTermMatcher matcher) {
    this.rawTerms = Objects.requireNonNull(matcher, "matcher is null");
    return this;
  }

  /** How search terms match a page's {@code _raw} ({@code searchmatch()}), or null if unknown. */
  public RawTermMatcher rawTermMatcher() {
    return rawTerms;
  }

  /** Whether work in progress should end now (see {@link SearchResources#stopped}). */
  public java.util.function.BooleanSupplier stopped() {
    return resources.stopped();
  }

  /** Adds a warning to the search's answer (as a plugin's warnings are). */
  public void warn(String message) {
    resources.warnings().accept(message);
  }

  /** A memory tracker for a new built-in operator of this search. */
  public MemoryTracker memory(String stage) {
    return resources.tracker(stage);
  }

  /** This evaluator, its search's time range and id being {@code info} ({@code addinfo}). */
  public Evaluator withSearchInfo(SearchInfo info) {
    this.searchInfo = Objects.requireNonNull(info, "info is null");
    return this;
  }

  /** The context of a new plugin operator of this search. */
  public io.quarry.plugin.api.command.OperatorContext pluginContext() {
    return resources.context(now, zone, rawTerms, searchInfo);
  }

  /** Where {@code outputlookup} writes. */
  public LookupTable.Writer lookupWriter() {
    return lookupWriter;
  }

  /** This evaluator, its search's {@code mstats append=true} reading points from {@code source}. */
  public Evaluator withMetricAppend(MetricAppend source) {
    this.metricAppend = Objects.requireNonNull(source, "source is null");
    return this;
  }

  /** Where {@code mstats append=true} reads its points. */
  public MetricAppend metricAppend() {
    return metricAppend;
  }

  /** The lookup table of that name, or null. */
  public LookupTable lookup(String name) {
    return lookups.table(name);
  }

  /** The zone of time formats and spans. */
  public ZoneId zone() {
    return zone;
  }

  /**
   * Whether {@code function} is applied to its arguments' values ({@link #apply(String, List)}):
   * all but the special forms that read their argument expressions themselves ({@code if}, {@code
   * case}, {@code coalesce}, {@code mvfilter}, {@code searchmatch}, {@code mvmap}, {@code sigfig}).
   */
  public static boolean appliesToValues(String function) {
    return FunctionCalls.appliesToValues(function);
  }

  /**
   * The value of {@code function} (one that {@link #appliesToValues}) over its arguments' values:
   * what compiled evaluators call for the functions they have no fast path for.
   */
  public Object apply(String function, List<Object> arguments) {
    return functions.apply(function, arguments);
  }

  /**
   * {@code function} (one that {@link #appliesToValues}) with every argument but the one at {@code
   * subject} fixed to its value in {@code arguments}, the fixed arguments read once — or null for a
   * function that is not one of its arguments alone ({@code random()}, {@code time()}).
   */
  public BoundFunction bind(String function, int subject, List<Object> arguments) {
    return functions.bind(function, subject, arguments);
  }
}
