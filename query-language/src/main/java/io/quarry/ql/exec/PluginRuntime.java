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
 * What a search lends the operators of plugin commands: its memory account, whether it was
 * cancelled, and where its warnings go.
 */
public record PluginRuntime(
    MemoryAccount memory, BooleanSupplier cancelled, Consumer<String> warnings) {

  public PluginRuntime {
    requireNonNull(memory, "memory is null");
    requireNonNull(cancelled, "cancelled is null");
    requireNonNull(warnings, "warnings is null");
  }

  /** For tools and tests: no memory ceiling, never cancelled, warnings dropped. */
  public static PluginRuntime unbounded() {
    return new PluginRuntime(MemoryAccount.unbounded("search"), () -> false, w -> {});
  }

  /** The context an operator of this search gets. */
  public OperatorContext context(Instant now, ZoneId zone) {
    BlockFactory factory = new BlockFactory(memory);
    return new OperatorContext() {
      @Override
      public BlockFactory blockFactory() {
        return factory;
      }

      @Override
      public boolean isCancelled() {
        return cancelled.getAsBoolean();
      }

      @Override
      public void warn(String message) {
        warnings.accept(message);
      }

      @Override
      public Instant now() {
        return now;
      }

      @Override
      public ZoneId zone() {
        return zone;
      }
    };
  }
}
