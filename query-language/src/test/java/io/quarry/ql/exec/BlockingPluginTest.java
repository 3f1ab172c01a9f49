package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Plugin operators on the page engine that wait on something outside the search ({@link
 * Operator#isBlocked}): the driver waits for them without calling anything else, hands on their
 * output in order, fails the search when their future fails, and leaves a cancelled search promptly
 * with a {@link CancellationException} rather than a plugin failure.
 */
class BlockingPluginTest {

  /** How {@code slowtag} behaves. */
  enum Mode {
    /** Each page is tagged on another thread after a short delay. */
    ASYNC,
    /** The first page's work never completes. */
    NEVER,
    /** The first page's work fails. */
    FAILS,
    /** addInput checks for cancellation (a plugin's long loop). */
    CHECKS_CANCELLED
  }

  /**
   * {@code slowtag field=f}: adds {@code tag = "t-" + f}, computed off the driver's thread as a
   * remote lookup would be. Fails loudly when the driver calls it while it is blocked.
   */
  private static final class SlowTag implements CommandDefinition {
    private final Mode mode;
    final AtomicInteger calledWhileBlocked = new AtomicInteger();
    final AtomicBoolean closed = new AtomicBoolean();

    SlowTag(Mode mode) {
      this.mode = mode;
    }

    @Override
    public String name() {
      return "slowtag";
    }

    @Override
    public String description() {
      return "tags rows after a remote call";
    }

    @Override
    public CommandKind kind() {
      return CommandKind.STREAMING;
    }

    @Override
    public List<ArgumentSpec> arguments() {
      return List.of(ArgumentSpec.required("field", ArgumentType.FIELD, "the field"));
    }

    @Override
    public BoundCommand bind(CommandArguments arguments) {
      String field = arguments.getString("field");
      return new BoundCommand() {
        @Override
        public Set<String> requiredFields() {
          return Set.of(field);
        }

        @Override
        public Set<String> producedFields() {
          return Set.of("tag");
        }

        @Override
        public Operator createOperator(OperatorContext context) {
          return new Remote(context, field);
        }
      };
    }

    private final class Remote implements Operator {
      private final OperatorContext context;
      private final String field;
      private CompletableFuture<Page> pending;
      private Page ready;
      private boolean finishing;

      Remote(OperatorContext context, String field) {
        this.context = context;
        this.field = field;
      }

      private void notBlocked() {
        if (pending != null && !pending.isDone()) {
          calledWhileBlocked.incrementAndGet();
        }
      }

      @Override
      public CompletionStage<Void> isBlocked() {
        return pending == null || pending.isDone() ? NOT_BLOCKED : pending.thenApply(p -> null);
      }

      @Override
      public boolean needsInput() {
        notBlocked();
        return !finishing && pending == null && ready == null;
      }

      @Override
      public void addInput(Page page) {
        notBlocked();
        if (mode == Mode.CHECKS_CANCELLED) {
          while (true) {
            context.checkCancelled();
            Thread.onSpinWait();
          }
        }
        Executor later = CompletableFuture.delayedExecutor(5, TimeUnit.MILLISECONDS);
        pending =
            switch (mode) {
              case NEVER -> new CompletableFuture<>();
              case FAILS ->
                  CompletableFuture.supplyAsync(
                      () -> {
                        throw new IllegalStateException("lookup service unavailable");
                      },
                      later);
              default -> CompletableFuture.supplyAsync(() -> tag(page), later);
            };
      }

      private Page tag(Page page) {
        Block values = page.block(field);
        BytesBlock.Builder tags = context.blockFactory().newBytesBlockBuilder(page.positionCount());
        for (int p = 0; p < page.positionCount(); p++) {
          tags.append("t-" + values.getObject(p));
        }
        return context.blockFactory().withColumn(page, "tag", tags.build());
      }

      @Override
      public Page getOutput() {
        notBlocked();
        if (ready == null && pending != null && pending.isDone()) {
          ready = pending.join();
          pending = null;
        }
        Page out = ready;
        ready = null;
        return out;
      }

      @Override
      public void finish() {
        notBlocked();
        finishing = true;
      }

      @Override
      public boolean isFinished() {
        notBlocked();
        return finishing && pending == null && ready == null;
      }

      @Override
      public void close() {
        closed.set(true);
      }
    }
  }

  private final List<Map<String, Object>> out = new ArrayList<>();
  private final AtomicBoolean cancelled = new AtomicBoolean();
  private final MemoryAccount memory = MemoryAccount.unbounded("test");

  /**
   * {@code slowtag field=n} on the page engine (a plugin stage of {@link PageReduce}) over rows
   * {@code n = 0 … rows-1} in pages of {@value RowPaging#BATCH}; the answer's rows go to {@link
   * #out}. The stages are closed however the run ends.
   */
  private void run(SlowTag definition, int rows) {
    CommandRegistry registry = CommandRegistry.builtIns().withPlugin("remote", List.of(definition));
    List<Command> commands =
        new Parser(registry).parse("* | slowtag field=n").commands().subList(1, 2);
    Evaluator evaluator =
        new Evaluator(Instant.EPOCH, ZoneOffset.UTC)
            .withResources(new SearchResources(memory, cancelled::get, w -> {}));
    List<Map<String, Object>> input = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      input.add(Map.of("n", (long) i));
    }
    PageReduce reduce =
        new PageReduce(
            commands,
            evaluator,
            page -> out.addAll(TestPages.rows(List.of(page))),
            new StageStats(List.of("slowtag")),
            0,
            RowPaging.BATCH);
    PageRun.pull(reduce, TestPages.pages(TestPages.cells(input), RowPaging.BATCH));
  }

  @Test
  void waitsForABlockedOperatorAndKeepsRowsInOrder() {
    SlowTag definition = new SlowTag(Mode.ASYNC);
    int rows = 3 * RowPaging.BATCH + 17; // several pages, each waited for
    run(definition, rows);

    assertThat(definition.calledWhileBlocked).hasValue(0);
    assertThat(definition.closed).isTrue();
    assertThat(out).hasSize(rows);
    for (int i = 0; i < rows; i++) {
      assertThat(out.get(i)).isEqualTo(Map.of("n", (long) i, "tag", "t-" + i));
    }
    assertThat(memory.used()).isZero();
  }

  @Test
  void aFailedFutureFailsTheSearchNamingThePlugin() {
    SlowTag definition = new SlowTag(Mode.FAILS);
    assertThatThrownBy(() -> run(definition, 10))
        .isInstanceOf(PluginFailureException.class)
        .hasMessageContaining("slowtag")
        .hasMessageContaining("remote")
        .hasRootCauseMessage("lookup service unavailable");
    assertThat(definition.closed).isTrue();
  }

  @Test
  void cancellingTheSearchEndsTheWait() throws Exception {
    SlowTag definition = new SlowTag(Mode.NEVER);
    CompletableFuture<Void> cancel =
        CompletableFuture.runAsync(
            () -> cancelled.set(true),
            CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS));

    assertThatThrownBy(() -> run(definition, 10)).isExactlyInstanceOf(CancellationException.class);
    cancel.get(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS);
    assertThat(definition.closed).isTrue();
    assertThat(out).isEmpty();
  }

  @Test
  void checkCancelledInAPluginIsACancellationNotAPluginFailure() {
    SlowTag definition = new SlowTag(Mode.CHECKS_CANCELLED);
    CompletableFuture.runAsync(
        () -> cancelled.set(true), CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS));

    assertThatThrownBy(() -> run(definition, 10)).isExactlyInstanceOf(CancellationException.class);
    assertThat(definition.closed).isTrue();
  }
}
