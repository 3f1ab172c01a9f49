package io.quarry.ql.eval;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.ql.exec.BoundFunction;
import io.quarry.ql.exec.Evaluator;
import java.util.ArrayList;
import java.util.List;

/**
 * A function whose arguments are literals but one (the subject): bound to the literals once per
 * compilation ({@link Evaluator#bind}: a regex compiled, a time format parsed, a number read) and
 * applied to each distinct value of the subject's column — once for a constant; once per dictionary
 * entry the positions read when the subject is a string block in dictionary form or an earlier such
 * answer (a {@link DictionaryColumn} out, so {@code len(urldecode(uri_path))} decodes each distinct
 * path once); else once per position. The value is {@code Evaluator}'s exactly (the bound function
 * is its per-value code); an entry is computed only when some position reads it, so a function that
 * may throw does so only where the row-at-a-time evaluation would.
 */
final class BoundCallEvaluator implements ExpressionEvaluator {
  /** A string block's dictionary larger than this many times the page is read per position. */
  private static final int MAX_ENTRIES_PER_POSITION = 1;

  private final String function;
  private final ExpressionEvaluator subject;
  private final List<ExpressionEvaluator> arguments;
  private final BoundFunction bound;

  private BoundCallEvaluator(
      String function,
      ExpressionEvaluator subject,
      List<ExpressionEvaluator> arguments,
      BoundFunction bound) {
    this.function = function;
    this.subject = subject;
    this.arguments = arguments;
    this.bound = bound;
  }

  /**
   * {@code function} over {@code arguments} bound to its literals, or null when more than one
   * argument is not a literal, there is none, or the function is not one of its arguments alone.
   */
  static BoundCallEvaluator of(
      String function, List<ExpressionEvaluator> arguments, Evaluator evaluator) {
    int subject = -1;
    List<Object> values = new ArrayList<>(arguments.size());
    for (int i = 0; i < arguments.size(); i++) {
      if (arguments.get(i) instanceof LiteralEvaluator literal) {
        values.add(literal.value());
      } else if (subject < 0) {
        subject = i;
        values.add(null);
      } else {
        return null;
      }
    }
    if (arguments.isEmpty()) {
      return null;
    }
    subject = Math.max(subject, 0); // all literals: the first is the subject, read once a page
    BoundFunction bound = evaluator.bind(function, subject, values);
    return bound == null
        ? null
        : new BoundCallEvaluator(function, arguments.get(subject), List.copyOf(arguments), bound);
  }

  @Override
  public boolean total() {
    return CallEvaluator.total(function, arguments);
  }

  @Override
  public ValueColumn eval(Frame frame) {
    return apply(bound, subject.eval(frame));
  }

  /**
   * {@code bound} over {@code values}: once for a constant, once per dictionary entry read ({@link
   * #overDictionary}), else at each position.
   */
  static ValueColumn apply(BoundFunction bound, ValueColumn values) {
    int size = values.size();
    if (values instanceof ConstantColumn constant) {
      return new ConstantColumn(bound.apply(constant.value()), size);
    }
    ValueColumn entries = overDictionary(bound, values);
    if (entries != null) {
      return entries;
    }
    ArrayColumn out = new ArrayColumn(size);
    for (int p = 0; p < size; p++) {
      out.set(p, bound.apply(values.get(p)));
    }
    return out;
  }

  /**
   * {@code bound} over {@code values} once per dictionary entry a position reads, when they are a
   * string block in dictionary form (at most {@value #MAX_ENTRIES_PER_POSITION} entries a position:
   * a larger dictionary is read per position) or an earlier such answer; else null.
   */
  static DictionaryColumn overDictionary(BoundFunction bound, ValueColumn values) {
    int size = values.size();
    if (values instanceof DictionaryColumn dictionary) {
      return overEntries(bound, dictionary.entries(), dictionary.ids(), dictionary.others(), size);
    }
    BlockColumn block =
        values instanceof SelectedColumn selected && selected.source() instanceof BlockColumn read
            ? read
            : values instanceof BlockColumn read ? read : null;
    if (block == null
        || !(block.dictionaryBlock() instanceof BytesBlock bytes)
        || bytes.dictionary().positionCount() > MAX_ENTRIES_PER_POSITION * size) {
      return null;
    }
    int[] ids = new int[size];
    for (int i = 0; i < size; i++) {
      int p = values == block ? i : ((SelectedColumn) values).position(i);
      ids[i] =
          block.kind(p) == ValueColumn.TEXT ? bytes.getOrdinal(bytes.getFirstValueIndex(p)) : -1;
    }
    return overEntries(bound, new BlockColumn("", bytes.dictionary()), ids, values, size);
  }

  /**
   * The function over a column of entries: each entry a position reads computed once, a position
   * without an entry from {@code others} (a null's value computed once).
   */
  private static DictionaryColumn overEntries(
      BoundFunction bound, ValueColumn entries, int[] ids, ValueColumn others, int size) {
    ArrayColumn answers = new ArrayColumn(entries.size());
    boolean[] computed = new boolean[entries.size()];
    ArrayColumn otherAnswers = null;
    boolean nullComputed = false;
    Object ofNull = null;
    for (int p = 0; p < size; p++) {
      int id = ids[p];
      if (id >= 0) {
        if (!computed[id]) {
          answers.set(id, bound.apply(entries.get(id)));
          computed[id] = true;
        }
        continue;
      }
      if (otherAnswers == null) {
        otherAnswers = new ArrayColumn(size);
      }
      if (others.kind(p) != ValueColumn.NULL) {
        otherAnswers.set(p, bound.apply(others.get(p)));
      } else {
        if (!nullComputed) {
          ofNull = bound.apply(null);
          nullComputed = true;
        }
        otherAnswers.set(p, ofNull);
      }
    }
    return new DictionaryColumn(
        answers, ids, otherAnswers == null ? new ConstantColumn(null, size) : otherAnswers);
  }
}
