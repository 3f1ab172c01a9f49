package io.quarry.ql.eval;

/**
 * A column computed by an evaluator: a kind per position and the value in the array of its kind
 * (whole numbers in {@code longs}, doubles in {@code doubles}, booleans in {@code booleans}, texts
 * and anything else in {@code objects}), each array made on the first value of its kind — a
 * condition's column is two bytes a position. Filled position by position by the evaluator that
 * made it, read-only once handed on.
 */
public final class ArrayColumn implements ValueColumn {
  private final byte[] kinds;
  private long[] longs;
  private double[] doubles;
  private boolean[] booleans;
  private Object[] objects;

  ArrayColumn(int size) {
    this.kinds = new byte[size];
  }

  /** A column of {@code size} positions holding {@code values} (Evaluator values). */
  public static ArrayColumn of(Object[] values, int size) {
    ArrayColumn column = new ArrayColumn(size);
    for (int p = 0; p < size; p++) {
      column.set(p, values[p]);
    }
    return column;
  }

  /** The positions {@code positions[0 .. count)} of {@code source}, copied in that order. */
  static ArrayColumn take(ValueColumn source, int[] positions, int count) {
    ArrayColumn column = new ArrayColumn(count);
    for (int i = 0; i < count; i++) {
      column.copy(i, source, positions[i]);
    }
    return column;
  }

  void setNull(int position) {
    kinds[position] = NULL;
  }

  void setLong(int position, long value) {
    if (longs == null) {
      longs = new long[kinds.length];
    }
    kinds[position] = LONG;
    longs[position] = value;
  }

  void setDouble(int position, double value) {
    if (doubles == null) {
      doubles = new double[kinds.length];
    }
    kinds[position] = DOUBLE;
    doubles[position] = value;
  }

  void setBoolean(int position, boolean value) {
    if (booleans == null) {
      booleans = new boolean[kinds.length];
    }
    kinds[position] = BOOLEAN;
    booleans[position] = value;
  }

  void setText(int position, String value) {
    kinds[position] = TEXT;
    objects()[position] = value;
  }

  /** Sets any Evaluator value. */
  void set(int position, Object value) {
    switch (value) {
      case null -> kinds[position] = NULL;
      case Long l -> setLong(position, l);
      case Double d -> setDouble(position, d);
      case Boolean b -> setBoolean(position, b);
      case String s -> setText(position, s);
      default -> {
        kinds[position] = ValueColumn.kindOf(value);
        objects()[position] = value;
      }
    }
  }

  /** Copies position {@code from} of {@code source} to {@code position}. */
  void copy(int position, ValueColumn source, int from) {
    switch (source.kind(from)) {
      case NULL -> kinds[position] = NULL;
      case LONG -> setLong(position, source.getLong(from));
      case DOUBLE -> setDouble(position, source.getDouble(from));
      case BOOLEAN -> setBoolean(position, source.getBoolean(from));
      case TEXT -> setText(position, source.getText(from));
      default -> set(position, source.get(from));
    }
  }

  private Object[] objects() {
    if (objects == null) {
      objects = new Object[kinds.length];
    }
    return objects;
  }

  @Override
  public int size() {
    return kinds.length;
  }

  @Override
  public byte kind(int position) {
    return kinds[position];
  }

  @Override
  public long getLong(int position) {
    return longs[position];
  }

  @Override
  public double getDouble(int position) {
    return doubles[position];
  }

  @Override
  public boolean getBoolean(int position) {
    return booleans[position];
  }

  @Override
  public String getText(int position) {
    return (String) objects[position];
  }

  @Override
  public Object get(int position) {
    return switch (kinds[position]) {
      case NULL -> null;
      case LONG -> longs[position];
      case DOUBLE -> doubles[position];
      case BOOLEAN -> booleans[position];
      default -> objects[position];
    };
  }
}
