package io.quarry.plugin.api.data;

/** The logical type of a column. {@link #TIMESTAMP} is epoch microseconds in a long block. */
public enum DataType {
  LONG,
  DOUBLE,
  BOOLEAN,
  STRING,
  TIMESTAMP;

  /** The lower-case name used in schemas on the wire. */
  public String wireName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
