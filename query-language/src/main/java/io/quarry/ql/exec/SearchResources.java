package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.MemoryAccount;
import java.time.Instant;
import java.time.ZoneId;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * What a search lends its operators: its memory account (built-in operators reserve through {@link
 * MemoryTracker}s, plugin operators through their {@code BlockFactory}), whether it was cancelled,
 * and where plugins' warnings go.
 */
public record SearchResources(
    MemoryAccount memory,
    BooleanSupplier cancelled,
    Consumer<String> warnings,
    BooleanSupplier stopped) {

  /**
   * @param cancelled whether the search was cancelled (what plugins see as {@code isCancelled})
   * @param stopped whether work in progress should end now: cancelled, finalized or past the time
   *     limit; long-running regular expression matches ask it ({@link StoppableText})
   */
  public SearchResources {
    requireNonNull(memory, "memory is null");
    requireNonNull(cancelled, "cancelled is null");
    requireNonNull(warnings, "warnings is null");
    requireNonNull(stopped, "stopped is null");
  }

  /** Resources of a search that stops only when cancelled. */
  public SearchResources(
      MemoryAccount memory, BooleanSupplier cancelled, Consumer<String> warnings) {
    this(memory, cancelled, warnings, cancelled);
  }

  /** For tools and tests: no memory ceiling, never cancelled, warnings dropped. */
  public static SearchResources unbounded() {
    return new SearchResources(MemoryAccount.unbounded("search"), () -> false, w -> {});
  }

  /** A tracker of the memory one built-in operator ({@code stage}) holds. */
  public MemoryTracker tracker(String stage) {
    return new MemoryTracker(memory, stage);
  }

  /** The context a plugin operator of this search gets. */
  public OperatorContext context(Instant now, ZoneId zone) {
    return context(now, zone, null, SearchInfo.NONE);
  }

  /**
   * As above; {@code rawTerms} (null: none) is how the search's bare words match a raw text (what a
   * pipeline run over an operator's rows asks, as {@code appendpipe}'s), {@code info} the search's
   * time range and id ({@code addinfo}).
   */
  OperatorContext context(Instant now, ZoneId zone, RawTermMatcher rawTerms, SearchInfo info) {
    return new Context(new BlockFactory(memory), this, now, zone, rawTerms, info);
  }

  /**
   * The operator context of a search: what plugins see, and for built-in page operators also {@link
   * #stopped} (a user's regular expression ends its match when the search must stop).
   */
  public static final class Context implements OperatorContext {
    private final BlockFactory factory;
    private final SearchResources resources;
    private final Instant now;
    private final ZoneId zone;
    private final RawTermMatcher rawTerms; // null: none
    private final SearchInfo info;

    private Context(
        BlockFactory factory,
        SearchResources resources,
        Instant now,
        ZoneId zone,
        RawTermMatcher rawTerms,
        SearchInfo info) {
      this.factory = factory;
      this.resources = resources;
      this.now = now;
      this.zone = zone;
      this.rawTerms = rawTerms;
      this.info = info;
    }

    /** The search's time range and id ({@code addinfo}). */
    public SearchInfo searchInfo() {
      return info;
    }

    /** How the search's bare words match a raw text, or null when it has no tokenizer. */
    RawTermMatcher rawTermMatcher() {
      return rawTerms;
    }

    /** The search's resources (for an evaluator of its expressions). */
    SearchResources resources() {
      return resources;
    }

    /** Whether work in progress should end now (see {@link SearchResources#stopped}). */
    public BooleanSupplier stopped() {
      return resources.stopped();
    }

    @Override
    public BlockFactory blockFactory() {
      return factory;
    }

    @Override
    public boolean isCancelled() {
      return resources.cancelled().getAsBoolean();
    }

    @Override
    public void warn(String message) {
      resources.warnings().accept(message);
    }

    @Override
    public Instant now() {
      return now;
    }

    @Override
    public ZoneId zone() {
      return zone;
    }
  }
}
