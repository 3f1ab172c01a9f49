package io.quarry.ql.ast;

/**
 * A bound command (of a {@link PluginCommand}) whose syntax is its own rather than {@code
 * name=value} options and a field list: {@link io.quarry.ql.parser.SplText} writes it with this.
 */
public interface WritesOwnSpl {

  /** The command's arguments as SPL, after its name (empty when it has none). */
  String splArguments();
}
