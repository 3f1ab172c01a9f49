package io.quarry.ql.eval;

import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.exec.EvalValues;
import io.quarry.ql.exec.MultivalueFunctions;
import java.util.ArrayList;
import java.util.List;

/**
 * The functions whose expression is evaluated once per value of a field, over a page at once: every
 * position's values laid out as one column of values (a frame of as many positions as there are
 * values, each knowing its position), the inner expression evaluated over that frame once, the
 * answers gathered back per position.
 *
 * <ul>
 *   <li>{@code mvfilter(condition)} — the condition sees a row of the one field it reads holding
 *       one value (no other field, no raw text); the values where it is true, as a multivalue
 *       (none: null). A condition reading no field or several is null.
 *   <li>{@code mvmap(field, expression)} — the expression sees the position with {@code field}
 *       replaced by one of its values; the answers that are not null (a multivalue's values each),
 *       as a multivalue; {@code Evaluator} stops once more than {@link
 *       MultivalueFunctions#MAX_RANGE} are kept, and so do these answers.
 * </ul>
 *
 * The inner expression is compiled with the field as an assigned slot ({@link FieldEvaluator} reads
 * it back as {@code Evaluator.field} reads a row's value).
 */
final class MultivalueEvaluator implements ExpressionEvaluator {
  private final boolean filter;
  private final ExpressionEvaluator field; // the field's values in the outer frame
  private final ExpressionEvaluator inner; // over the values' frame
  private final int slot; // where the inner expression reads a value

  private MultivalueEvaluator(
      boolean filter, ExpressionEvaluator field, ExpressionEvaluator inner, int slot) {
    this.filter = filter;
    this.field = field;
    this.inner = inner;
    this.slot = slot;
  }

  /**
   * {@code mvfilter}: {@code field} reads the condition's field in the outer frame, {@code
   * condition} is compiled over a frame whose only assigned slot (0) is that field.
   */
  static MultivalueEvaluator filter(ExpressionEvaluator field, ExpressionEvaluator condition) {
    return new MultivalueEvaluator(true, field, condition, 0);
  }

  /**
   * {@code mvmap}: {@code field} reads the field in the outer frame, {@code expression} is compiled
   * with the slots the outer expression sees and the field's value in {@code slot}, the one after
   * them.
   */
  static MultivalueEvaluator map(
      ExpressionEvaluator field, ExpressionEvaluator expression, int slot) {
    return new MultivalueEvaluator(false, field, expression, slot);
  }

  @Override
  public boolean total() {
    return field.total() && inner.total();
  }

  @Override
  public ValueColumn eval(Frame frame) {
    int size = frame.size();
    ValueColumn outer = field.eval(frame);
    int[] owners = new int[Math.max(16, size)];
    List<Object> values = new ArrayList<>();
    for (int p = 0; p < size; p++) {
      for (Object value : EvalValues.values(outer.get(p))) {
        if (values.size() == owners.length) {
          owners = java.util.Arrays.copyOf(owners, owners.length * 2);
        }
        owners[values.size()] = p;
        values.add(value);
      }
    }
    int count = values.size();
    ValueColumn answers = count == 0 ? null : inner.eval(valuesFrame(frame, owners, values));
    Object[] gathered = new Object[size];
    List<Object> kept = new ArrayList<>();
    int v = 0;
    for (int p = 0; p < size; p++) {
      kept.clear();
      for (; v < count && owners[v] == p; v++) {
        Object answer = answers.get(v);
        if (filter) {
          if (Boolean.TRUE.equals(answer)) {
            kept.add(values.get(v));
          }
        } else if (kept.size() <= MultivalueFunctions.MAX_RANGE) {
          if (answer instanceof List<?> list) {
            kept.addAll(list);
          } else if (answer != null) {
            kept.add(answer);
          }
        }
      }
      gathered[p] = EvalValues.multivalue(kept);
    }
    return ArrayColumn.of(gathered, size);
  }

  /** The frame the inner expression reads: one position per value. */
  private Frame valuesFrame(Frame frame, int[] owners, List<Object> values) {
    int count = values.size();
    ValueColumn column = ArrayColumn.of(values.toArray(), count);
    if (filter) {
      return new Frame(
          new Page(new Schema(List.of()), List.of(), count), new ValueColumn[] {column});
    }
    Frame repeated = ReadsFields.narrowed(inner, frame).select(owners, count);
    ValueColumn[] slots = new ValueColumn[Math.max(frame.slots(), slot + 1)];
    for (int s = 0; s < frame.slots(); s++) {
      slots[s] = repeated.assigned(s);
    }
    slots[slot] = column;
    return repeated.withAssigned(slots);
  }
}
