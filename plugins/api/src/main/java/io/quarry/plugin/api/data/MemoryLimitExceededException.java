package io.quarry.plugin.api.data;

/** A reservation that would take a {@link MemoryAccount} over its ceiling. */
public final class MemoryLimitExceededException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String what;
  private final String owner;

  MemoryLimitExceededException(String owner, String what, long asked, long used, long limit) {
    super(
        owner
            + ": "
            + what
            + " needs "
            + asked
            + " more bytes but "
            + used
            + " of the limit of "
            + limit
            + " are in use");
    this.what = what;
    this.owner = owner;
  }

  /** The account whose ceiling it would have passed ({@link MemoryAccount#owner}). */
  public String owner() {
    return owner;
  }

  /** What asked for the memory (a command name, "block"). */
  public String what() {
    return what;
  }
}
