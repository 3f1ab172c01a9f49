package io.quarry.server.search;

import io.quarry.ql.ast.Command;
import io.quarry.ql.plan.SearchPlan;

/**
 * What a search wrote, read from its plan once it ran (its counts and the audit's indexes): the
 * events and indexes of its {@code collect} commands, of the subsearches that ran while it was
 * planned and of {@code map}'s searches.
 */
public final class PlanCollected {
  private PlanCollected() {}

  /**
   * The events the plan's {@code collect} commands, its subsearches (while it was planned) and
   * {@code map}'s searches wrote.
   */
  static long events(SearchPlan plan) {
    long collected = plan.subsearchesCollected().events();
    for (SearchSubsearchRunner runner : mapRunners(plan)) {
      // map's searches; the runner is the one the subsearches ran through while the plan was made,
      // so it counts those too
      collected += runner.collected() - plan.subsearchesCollected().events();
    }
    for (Command command : plan.pipeline()) {
      if (io.quarry.ql.plan.WritesEvents.of(command)
              instanceof io.quarry.ql.plan.WritesEvents writes
          && writes.writer() != null) {
        collected += writes.writer().written();
      }
    }
    return collected;
  }

  /**
   * The runners {@code map}'s searches in the plan run through that may write (a read-only map's is
   * a {@link ReadOnlyRunner}), each once.
   */
  private static java.util.Set<SearchSubsearchRunner> mapRunners(SearchPlan plan) {
    java.util.Set<SearchSubsearchRunner> runners =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (Command command : plan.pipeline()) {
      if (command instanceof io.quarry.ql.ast.PluginCommand plugin
          && plugin.bound() instanceof io.quarry.ql.plan.RunsSearches runs
          && runs.runner() instanceof SearchSubsearchRunner runner) {
        runners.add(runner);
      }
    }
    return runners;
  }

  /**
   * The indexes a plan writes: its {@code collect} commands', those its subsearches wrote while it
   * was planned and those {@code map}'s searches wrote so far (known once they ran), in order.
   */
  public static java.util.List<String> indexes(SearchPlan plan) {
    java.util.Set<String> indexes = new java.util.LinkedHashSet<>();
    for (Command command : plan.pipeline()) {
      if (io.quarry.ql.plan.WritesEvents.of(command)
              instanceof io.quarry.ql.plan.WritesEvents writes
          && writes.writer() != CollectWriter.NOTHING) {
        indexes.add(writes.index());
      }
    }
    indexes.addAll(plan.subsearchesCollected().indexes());
    for (SearchSubsearchRunner runner : mapRunners(plan)) {
      indexes.addAll(runner.collectedSoFar().indexes()); // map's searches, run by now
    }
    return java.util.List.copyOf(indexes);
  }
}
