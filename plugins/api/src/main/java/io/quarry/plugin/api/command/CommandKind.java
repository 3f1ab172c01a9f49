package io.quarry.plugin.api.command;

/** How a command runs, in Splunk's taxonomy; the planner places each kind differently. */
public enum CommandKind {
  /**
   * Row by row, independently: runs in every driver (one per segment slice, in parallel) before an
   * aggregation. {@link BoundCommand#createOperator} is called once per driver.
   */
  STREAMING,
  /**
   * Transforming (reporting): a map operator per driver turns rows into partial state pages, and
   * one reduce operator merges them into the answer ({@link BoundCommand#createReduceOperator}).
   */
  TRANSFORMING,
  /** Centralized: one operator sees every row, in the order the pipeline has them. */
  CENTRALIZED,
  /**
   * Generating: produces rows without input; only first in a query ({@code | name args}). Its
   * operator is finished at once and asked for pages until it is finished.
   */
  GENERATING
}
