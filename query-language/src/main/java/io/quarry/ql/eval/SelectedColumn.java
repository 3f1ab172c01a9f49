package io.quarry.ql.eval;

/**
 * Some positions of a column, read in place: position {@code i} is the source's {@code
 * positions[i]} — what a part evaluated only where it is taken ({@link Lazily}) reads of a page's
 * field, instead of a copy of the field's values at those positions ({@link Frame#select}).
 */
final class SelectedColumn implements ValueColumn {
  private final ValueColumn source;
  private final int[] positions;
  private final int count;

  /** The positions {@code positions[0 .. count)} of {@code source} (read, not copied). */
  SelectedColumn(ValueColumn source, int[] positions, int count) {
    this.source = source;
    this.positions = positions;
    this.count = count;
  }

  /** The column read. */
  ValueColumn source() {
    return source;
  }

  /** The source position of position {@code i}. */
  int position(int i) {
    return positions[i];
  }

  @Override
  public int size() {
    return count;
  }

  @Override
  public byte kind(int position) {
    return source.kind(positions[position]);
  }

  @Override
  public long getLong(int position) {
    return source.getLong(positions[position]);
  }

  @Override
  public double getDouble(int position) {
    return source.getDouble(positions[position]);
  }

  @Override
  public boolean getBoolean(int position) {
    return source.getBoolean(positions[position]);
  }

  @Override
  public String getText(int position) {
    return source.getText(positions[position]);
  }

  @Override
  public Object get(int position) {
    return source.get(positions[position]);
  }
}
