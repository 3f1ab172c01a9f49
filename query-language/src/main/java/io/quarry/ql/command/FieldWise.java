package io.quarry.ql.command;

/**
 * A built-in's bound command that reads every field it is given yet works on each field on its own,
 * under its own name ({@code convert auto(*)} without {@code AS}, {@code replace} over every
 * field): the fields a page needs before it are the fields needed after it, so a page source can
 * still load only those ({@code exec.InputFields.of}).
 */
public interface FieldWise {

  /** Whether this use works field by field in place (a renaming {@code AS} does not). */
  boolean fieldWise();
}
