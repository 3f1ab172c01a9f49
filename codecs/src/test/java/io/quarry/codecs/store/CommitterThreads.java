package io.quarry.codecs.store;

/** The committer threads alive in this JVM ({@link CommitterPool}'s, by their names). */
final class CommitterThreads {
  private CommitterThreads() {}

  /** How many threads named {@code quarry-committer-*} are alive. */
  static long count() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .filter(thread -> thread.getName().startsWith("quarry-committer-"))
        .count();
  }
}
