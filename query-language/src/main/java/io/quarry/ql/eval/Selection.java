package io.quarry.ql.eval;

/**
 * The positions a condition keeps: those where its value is true (null, false and anything not a
 * boolean drop the position, as {@code where} drops a row).
 */
public final class Selection {
  private Selection() {}

  /**
   * Writes the positions where {@code condition} is true into {@code positions} (at least as long
   * as the column) in order.
   *
   * @return how many there are
   */
  public static int trues(ValueColumn condition, int[] positions) {
    int count = 0;
    int size = condition.size();
    if (condition instanceof ConstantColumn constant) {
      if (constant.kind(0) == ValueColumn.BOOLEAN && constant.getBoolean(0)) {
        for (int p = 0; p < size; p++) {
          positions[p] = p;
        }
        return size;
      }
      return 0;
    }
    for (int p = 0; p < size; p++) {
      if (condition.kind(p) == ValueColumn.BOOLEAN && condition.getBoolean(p)) {
        positions[count++] = p;
      }
    }
    return count;
  }
}
