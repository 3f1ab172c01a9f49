package io.quarry.codecs.store;

/**
 * An event of a batch that its index cannot store ({@link IndexStore#problem}): a typed field that
 * does not parse, a value too long. Thrown by {@link IndexStore#add} before anything of the batch
 * is stored, so a caller can store the events before it ({@link #position}) and report the rest.
 */
public final class InvalidEventException extends IllegalArgumentException {
  private final int position;
  private final String problem;

  InvalidEventException(int position, String problem) {
    super("event " + position + ": " + problem);
    this.position = position;
    this.problem = problem;
  }

  /** The event's position in the batch. */
  public int position() {
    return position;
  }

  /** Why the event cannot be stored. */
  public String problem() {
    return problem;
  }
}
