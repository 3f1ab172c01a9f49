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
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A transforming plugin command as chain operators ({@link TransformingPlugin}): in one chain (map
 * side, reduce side) by the pull protocol, and split as a batch search runs it — map sides in
 * several slices' chains, their state pages kept reserved, then the reduce side at the head of the
 * reduce chain ({@link PageReduce#afterMapSide}). Map operators see only the fields the command
 * reads (a missing one as nulls), the answer is what a direct sum gives, and every block the plugin
 * held is given back (the search's memory account ends at zero).
 */
class TransformingPluginOperatorsTest {
  /** Column names each map operator was given, in order. */
  private final List<List<String>> seen = new ArrayList<>();

  /**
   * {@code total field=f}: map side a one-row state (count of non-null f, sum of whole-number f);
   * reduce side the states added up as {@code count}, {@code sum}.
   */
  private final CommandDefinition total =
      new CommandDefinition() {
        public String name() {
          return "total";
        }

        public String description() {
          return "count and sum of a field";
        }

        public CommandKind kind() {
          return CommandKind.TRANSFORMING;
        }

        public List<ArgumentSpec> arguments() {
          return List.of(ArgumentSpec.required("field", ArgumentType.FIELD, "the field"));
        }

        public BoundCommand bind(CommandArguments arguments) {
          String field = arguments.getString("field");
          return new BoundCommand() {
            public Set<String> requiredFields() {
              return Set.of(field);
            }

            public Set<String> producedFields() {
              return Set.of("count", "sum");
            }

            public Operator createOperator(OperatorContext context) {
              return new Sums(context, false) {
                public void addInput(Page page) {
                  seen.add(page.schema().columns().stream().map(Schema.Column::name).toList());
                  Block values = page.block(field);
                  for (int p = 0; p < page.positionCount(); p++) {
                    if (!values.isNull(p)) {
                      sums[0]++;
                      sums[1] += ((Number) values.getObject(p)).longValue();
                    }
                  }
                  context.blockFactory().release(page);
                }
              };
            }

            public Operator createReduceOperator(OperatorContext context) {
              return new Sums(context, true) {
                public void addInput(Page state) {
                  sums[0] += ((LongBlock) state.block("c")).getLong(0);
                  sums[1] += ((LongBlock) state.block("s")).getLong(0);
                  context.blockFactory().release(state);
                }
              };
            }
          };
        }
      };

  /** A (count, sum) handed out as one page at finish, named as state or as the answer. */
  private abstract static class Sums implements Operator {
    final long[] sums = new long[2];
    private final OperatorContext context;
    private final boolean answer;
    private final ArrayDeque<Page> out = new ArrayDeque<>();
    private boolean finished;

    Sums(OperatorContext context, boolean answer) {
      this.context = context;
      this.answer = answer;
    }

    public boolean needsInput() {
      return !finished;
    }

    public void finish() {
      if (finished) {
        return;
      }
      finished = true;
      LongBlock.Builder c = context.blockFactory().newLongBlockBuilder(1);
      LongBlock.Builder s = context.blockFactory().newLongBlockBuilder(1);
      c.append(sums[0]);
      s.append(sums[1]);
      Block count = c.build();
      Block sum = s.build();
      out.add(
          new Page(
              new Schema(
                  List.of(
                      new Schema.Column(answer ? "count" : "c", count.dataType()),
                      new Schema.Column(answer ? "sum" : "s", sum.dataType()))),
              List.of(count, sum),
              1));
    }

    public boolean isFinished() {
      return finished && out.isEmpty();
    }

    public Page getOutput() {
      return out.poll();
    }
  }

  private final MemoryAccount memory = MemoryAccount.unbounded("test");

  private PluginCommand command(String query) {
    return (PluginCommand) parse(query).getFirst();
  }

  private static Evaluator evaluator(MemoryAccount account) {
    return new Evaluator(Instant.EPOCH, ZoneOffset.UTC)
        .withResources(new SearchResources(account, () -> false, w -> {}));
  }

  /**
   * In a chain ({@link TransformingPlugin#operators}: map side, reduce operator, re-paging) driven
   * one call at a time by the pull protocol ({@link ProtocolDriver}: random splits and order of
   * feeding and pulling): the direct sum, the map operator seeing only the field it reads, and
   * everything counted released — also when closed halfway.
   */
  @Test
  void asOperatorsOfAChainItKeepsTheProtocol() {
    for (int seed = 0; seed < 6; seed++) {
      Random random = new Random(seed);
      List<Page> input = new ArrayList<>();
      for (long from = 0; from < 1000; ) {
        long to = Math.min(1000, from + 1 + random.nextInt(200));
        input.add(page(from, to));
        from = to;
      }
      MemoryAccount account = new MemoryAccount("test", Long.MAX_VALUE);
      List<Operator> operators =
          TransformingPlugin.operators(command("total field=n"), evaluator(account), 3);
      List<Page> answer;
      try {
        answer = new ProtocolDriver("total", operators, random).run(input);
      } finally {
        operators.forEach(Operator::close);
      }
      assertThat(TestPages.rows(answer))
          .as("seed %d", seed)
          .containsExactly(Map.of("count", 1000L, "sum", 499_500L));
      assertThat(account.used()).as("seed %d: released", seed).isZero();
      MemoryAccount halfway = new MemoryAccount("test", Long.MAX_VALUE);
      List<Operator> abandoned =
          TransformingPlugin.operators(command("total field=n"), evaluator(halfway), 3);
      try {
        new ProtocolDriver("total", abandoned, random).abandon(input.subList(0, input.size() / 2));
      } finally {
        abandoned.forEach(Operator::close);
      }
      assertThat(halfway.used()).as("seed %d: closed halfway, released", seed).isZero();
    }
    assertThat(seen).isNotEmpty().allSatisfy(columns -> assertThat(columns).containsExactly("n"));
  }

  private static Page page(long from, long to) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long n = from; n < to; n++) {
      rows.add(Map.of("n", n, "other", "x" + n));
    }
    return TestPages.of(rows);
  }

  /**
   * A map side as the last step of a slice's chain ({@code keepsStates}): the state pages it made,
   * still reserved.
   */
  private List<Page> mapSide(PluginCommand command, Evaluator evaluator, List<Page> pages) {
    List<Page> states = new ArrayList<>();
    PageRun.drive(
        pages,
        List.of(Driver.Step.counted(TransformingPlugin.mapSide(command, evaluator, true), 0)),
        states::add,
        new StageStats(List.of(command.name())),
        evaluator.pluginContext());
    return states;
  }

  /** The reduce side after the map side ({@code query}'s commands), given {@code states}. */
  private List<Page> reduceSide(String query, Evaluator evaluator, List<Page> states) {
    List<Command> commands = parse(query);
    List<Page> answer = new ArrayList<>();
    PageReduce reduce = afterMapSide(commands, evaluator, answer::add);
    PageRun.pull(reduce, states);
    return answer;
  }

  @Test
  void mapSidesInSlicesThenTheReduceSideGiveTheDirectSum() {
    Evaluator evaluator = evaluator(memory);
    PluginCommand command = command("total field=n");
    // three slices, one fed two pages, one none (no map operator made: no state)
    List<Page> states = new ArrayList<>();
    states.addAll(mapSide(command, evaluator, List.of(page(0, 100), page(100, 150))));
    states.addAll(mapSide(command, evaluator, List.of(page(150, 1000))));
    states.addAll(mapSide(command, evaluator, List.of()));
    assertThat(states).hasSize(2);
    assertThat(memory.used()).as("the states held reserved").isPositive();
    List<Page> answer = reduceSide("total field=n | eval mean=sum/count", evaluator, states);
    assertThat(TestPages.rows(answer))
        .containsExactly(Map.of("count", 1000L, "sum", 499_500L, "mean", 499.5));
    // each map operator saw only the field it reads
    assertThat(seen).hasSize(3).allSatisfy(columns -> assertThat(columns).containsExactly("n"));
    assertThat(memory.used()).isZero();
  }

  @Test
  void aFieldNoRowHasIsAColumnOfNulls() {
    Evaluator evaluator = evaluator(memory);
    List<Page> states = mapSide(command("total field=missing"), evaluator, List.of(page(0, 10)));
    List<Page> answer = reduceSide("total field=missing", evaluator, states);
    assertThat(seen).containsExactly(List.of("missing"));
    assertThat(TestPages.rows(answer)).containsExactly(Map.of("count", 0L, "sum", 0L));
    assertThat(memory.used()).isZero();
  }

  /**
   * A reduce side whose answer is full after its one page pulls the states its reduce operator
   * needs (every one: it answers once its input is over) and gives each back; one whose run fails
   * before the end gives back, closed, what its reduce operator holds — a state never pulled stays
   * with its holder ({@code MapSideStates}), which gives it back.
   */
  @Test
  void statesTheReduceSideTakesAreGivenBack() {
    Evaluator evaluator = evaluator(memory);
    PluginCommand command = command("total field=n");
    List<Page> states = new ArrayList<>();
    for (int slice = 0; slice < 3; slice++) {
      states.addAll(mapSide(command, evaluator, List.of(page(slice * 10, slice * 10 + 10))));
    }
    List<Command> commands = parse("total field=n | head 1");
    List<Page> answer = new ArrayList<>();
    PageReduce reduce =
        afterMapSide(
            commands,
            evaluator,
            page -> {
              answer.add(page);
              return false; // the answer is full after one page
            });
    PageRun.pull(reduce, states);
    assertThat(TestPages.rows(answer)).containsExactly(Map.of("count", 30L, "sum", 435L));
    assertThat(memory.used()).isZero();

    // the map side's states made as they are pulled (as MapSideStates hands them): the second is
    // never made, the control stopping the search before the source takes it
    int[] made = {0};
    java.util.Iterator<Page> two =
        List.of(0, 10).stream()
            .flatMap(from -> mapSide(command, evaluator, List.of(page(from, from + 10))).stream())
            .peek(state -> made[0]++)
            .iterator();
    PageReduce abandoned = afterMapSide(commands, evaluator, answer::add);
    int[] asked = {0};
    abandoned.pullFrom(
        new PagesSource(
            two,
            positions -> {
              if (++asked[0] == 2) {
                throw new IllegalStateException("the search failed");
              }
              return false;
            }));
    assertThatThrownBy(abandoned::run).hasMessage("the search failed");
    assertThat(made[0]).as("states made: the first, taken").isEqualTo(1);
    abandoned.close();
    assertThat(memory.used()).as("every state taken given back by close alone").isZero();
  }

  /**
   * The reduce side's answer is re-paged once, by the reduce side's own {@link RowPaging} — not
   * again at the end of the chain, unless a command after it makes pages of its own ({@code
   * format}: its one-row answer paged as rows again).
   */
  @Test
  void theReduceSidesAnswerIsPagedOnce() {
    Evaluator evaluator = evaluator(memory);
    for (String query : List.of("total field=n", "total field=n | eval mean=sum/count")) {
      PageReduce reduce = afterMapSide(parse(query), evaluator, page -> true);
      try {
        // the reduce operator, then its re-paging, then the commands after it
        assertThat(reduce.operators()).as(query).filteredOn(RowPaging.class::isInstance).hasSize(1);
        assertThat(reduce.operators().get(1)).as(query).isInstanceOf(RowPaging.class);
      } finally {
        reduce.close();
      }
    }
    PageReduce formatted = afterMapSide(parse("total field=n | format"), evaluator, page -> true);
    try {
      assertThat(formatted.operators()).filteredOn(RowPaging.class::isInstance).hasSize(2);
      assertThat(formatted.operators().getLast()).isInstanceOf(RowPaging.class);
    } finally {
      formatted.close();
    }
  }

  /** The reduce side of {@code commands} (the first one's map side ran) into {@code end}. */
  private static PageReduce afterMapSide(
      List<Command> commands, Evaluator evaluator, java.util.function.Predicate<Page> end) {
    return PageReduce.afterMapSide(
        commands,
        evaluator,
        end,
        new StageStats(commands.stream().map(Command::name).toList()),
        0,
        1024);
  }

  private List<Command> parse(String query) {
    CommandRegistry registry = CommandRegistry.builtIns().withPlugin("sums", List.of(total));
    List<Command> commands = new Parser(registry).parse("* | " + query).commands();
    return commands.subList(1, commands.size());
  }
}
