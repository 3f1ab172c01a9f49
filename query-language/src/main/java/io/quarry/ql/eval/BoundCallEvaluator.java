package io.quarry.ql.eval;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.ql.exec.BoundFunction;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.NumberFunction;
import java.util.ArrayList;
import java.util.List;

/**
 * A function whose arguments are literals but one (the subject): bound to the literals once per
 * compilation ({@link Evaluator#bind}: a regex compiled, a time format parsed, a number read) and
 * applied to each distinct value of the subject's column — once for a constant; once per dictionary
 * entry the positions read when the subject is a string block in dictionary form or an earlier such
 * answer (a {@link DictionaryColumn} out, so {@code len(urldecode(uri_path))} decodes each distinct
 * path once); an arithmetic function over numbers by its typed rules ({@link TypedNumbers}); else
 * once per position. The value is {@code Evaluator}'s exactly (the bound function is its per-value
 * code); an entry is computed only when some position reads it, so a function that may throw does
 * so only where the row-at-a-time evaluation would.
 */
final class BoundCallEvaluator implements ExpressionEvaluator {
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
   * {@code bound} over {@code values}: never for no position, once for a constant, once per
   * dictionary entry read ({@link #overDictionary}), else at each position.
   */
  static ValueColumn apply(BoundFunction bound, ValueColumn values) {
    int size = values.size();
    if (size == 0) { // no row: the function is not called (it throws only where a row would)
      return new ArrayColumn(0);
    }
    if (values instanceof ConstantColumn constant) {
      return new ConstantColumn(bound.apply(constant.value()), size);
    }
    ValueColumn entries = overDictionary(bound, values);
    if (entries != null) {
      return entries;
    }
    if (bound instanceof NumberFunction number) {
      return TypedNumbers.apply(number, values);
    }
    ArrayColumn out = new ArrayColumn(size);
    for (int p = 0; p < size; p++) {
      out.set(p, bound.apply(values.get(p)));
    }
    return out;
  }

  /**
   * {@code bound} over {@code values} once per dictionary entry a position reads, when they are a
   * string block in dictionary form or an earlier such answer; else null. A dictionary larger than
   * the page (a segment's, shared by its pages) is read through the entries the page uses, numbered
   * in the order they first appear.
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
    if (block == null || !(block.dictionaryBlock() instanceof BytesBlock bytes)) {
      return null;
    }
    boolean small = bytes.dictionary().positionCount() <= size;
    UsedEntries used = small ? null : new UsedEntries(size);
    int[] ids = new int[size];
    for (int i = 0; i < size; i++) {
      int p = values == block ? i : ((SelectedColumn) values).position(i);
      if (block.kind(p) != ValueColumn.TEXT) {
        ids[i] = -1;
      } else {
        int ordinal = bytes.getOrdinal(bytes.getFirstValueIndex(p));
        ids[i] = small ? ordinal : used.id(ordinal);
      }
    }
    ValueColumn entries = new BlockColumn("", bytes.dictionary());
    if (!small) {
      entries = new SelectedColumn(entries, used.ordinals, used.count);
    }
    return overEntries(bound, entries, ids, values, size);
  }

  /** The dictionary entries a page reads, each numbered on first use (open addressing). */
  private static final class UsedEntries {
    private final int[] keys;
    private final int[] values;
    final int[] ordinals; // by number, the entry
    int count;

    UsedEntries(int positions) {
      int capacity = Integer.highestOneBit(Math.max(positions, 1) * 2 - 1) << 1;
      keys = new int[capacity];
      values = new int[capacity];
      java.util.Arrays.fill(keys, -1);
      ordinals = new int[positions];
    }

    /** The number of {@code ordinal}, given it if it has none yet. */
    int id(int ordinal) {
      int mask = keys.length - 1;
      int slot = (ordinal * 0x9E3779B9) >>> 1 & mask;
      while (keys[slot] != -1) {
        if (keys[slot] == ordinal) {
          return values[slot];
        }
        slot = (slot + 1) & mask;
      }
      keys[slot] = ordinal;
      values[slot] = count;
      ordinals[count] = ordinal;
      return count++;
    }
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
