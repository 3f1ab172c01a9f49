package io.quarry.ql.command;

import io.quarry.plugin.api.command.CommandKind;

/**
 * A built-in's bound command whose kind depends on its arguments, not only on its declaration:
 * {@code fillnull} with a field list streams, without one it must see every row first.
 */
public interface PerUseKind {

  /** Where the planner may run this use. */
  CommandKind kind();
}
