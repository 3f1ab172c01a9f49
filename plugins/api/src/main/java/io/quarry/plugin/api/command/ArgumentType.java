package io.quarry.plugin.api.command;

/** The type of a command argument; the parser converts and checks values before binding. */
public enum ArgumentType {
  STRING,
  /** A field name. */
  FIELD,
  LONG,
  DOUBLE,
  /** Splunk's booleans: true/t/1/yes and false/f/0/no. */
  BOOLEAN,
  /**
   * Field names after the options ({@code cmd opt=v f1 f2}); at most one argument of this type, and
   * not together with a {@linkplain ArgumentSpec#alsoPositional() positional} argument.
   */
  FIELD_LIST
}
