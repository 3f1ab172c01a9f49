package io.quarry.ql.eval;

/**
 * The same value at every position: a literal, or an absent field's null. A text literal written to
 * a field becomes a constant string block ({@code ColumnBlocks}); other values are written out per
 * position (the plugin API's constant form is a string block's only, since SPI 1.5).
 */
public final class ConstantColumn implements ValueColumn {
  private final Object value;
  private final int size;
  private final byte kind;
  private final long longValue;
  private final double doubleValue;

  /** {@code value} (an Evaluator value) at each of {@code size} positions. */
  public ConstantColumn(Object value, int size) {
    this.value = value;
    this.size = size;
    this.kind = ValueColumn.kindOf(value);
    this.longValue = value instanceof Long l ? l : value instanceof Boolean b ? (b ? 1 : 0) : 0;
    this.doubleValue = value instanceof Double d ? d : 0;
  }

  /** The value at every position. */
  public Object value() {
    return value;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public byte kind(int position) {
    return kind;
  }

  @Override
  public long getLong(int position) {
    return longValue;
  }

  @Override
  public double getDouble(int position) {
    return doubleValue;
  }

  @Override
  public boolean getBoolean(int position) {
    return longValue != 0;
  }

  @Override
  public String getText(int position) {
    return (String) value;
  }

  @Override
  public Object get(int position) {
    return value;
  }
}
