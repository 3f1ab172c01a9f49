package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A plugin command sees a multivalue as a block position with several values (SPI 1.2), reads every
 * value through the value index, and its own multivalue output becomes a multivalue of the answer;
 * fields it never saw keep theirs (on the page engine: a plugin stage of {@link PageReduce}).
 */
class PluginMultivalueTest {

  /**
   * {@code shout field=f}: {@code count} of f's values and {@code loud}, each value upper-cased.
   */
  private static final class Shout implements CommandDefinition {
    final List<Boolean> sawMultivaluedBlocks = new ArrayList<>();

    @Override
    public String name() {
      return "shout";
    }

    @Override
    public String description() {
      return "upper-cases every value";
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
          return Set.of("count", "loud");
        }

        @Override
        public Operator createOperator(OperatorContext context) {
          BlockFactory blocks = context.blockFactory();
          return new PageTransformOperator() {
            @Override
            protected Page process(Page input) {
              BytesBlock values = (BytesBlock) input.block(field);
              sawMultivaluedBlocks.add(values.mayHaveMultivaluedFields());
              LongBlock.Builder counts = blocks.newLongBlockBuilder(input.positionCount());
              BytesBlock.Builder loud = blocks.newBytesBlockBuilder(input.positionCount());
              for (int p = 0; p < input.positionCount(); p++) {
                counts.append(values.getValueCount(p));
                int first = values.getFirstValueIndex(p);
                loud.beginPositionEntry();
                for (int i = first; i < first + values.getValueCount(p); i++) {
                  loud.append(values.getStringValue(i).toUpperCase(Locale.ROOT));
                }
                loud.endPositionEntry(); // no values: null
              }
              Page out = blocks.withColumn(input, "count", counts.build());
              return blocks.withColumn(out, "loud", loud.build());
            }
          };
        }
      };
    }
  }

  @Test
  void aPluginReadsAndWritesMultivalues() {
    Shout shout = new Shout();
    CommandRegistry registry = CommandRegistry.builtIns().withPlugin("test", List.of(shout));
    List<Command> commands =
        new Parser(registry).parse("* | shout field=tags").commands().subList(1, 2);
    MemoryAccount memory = MemoryAccount.unbounded("test");
    Evaluator evaluator =
        new Evaluator(Instant.EPOCH, ZoneOffset.UTC)
            .withResources(new SearchResources(memory, () -> false, w -> {}));
    List<Page> pages = new ArrayList<>();
    PageReduce reduce =
        new PageReduce(commands, evaluator, pages::add, new StageStats(List.of("shout")), 0, 16);
    PageRun.pull(
        reduce,
        List.of(
            TestPages.of(
                List.of(
                    Map.of("tags", List.of("red", "blue"), "n", List.of(1L, 2L)),
                    Map.of("tags", "green"),
                    Map.of("tags", "x y")))));
    List<Map<String, Object>> out = TestPages.rows(pages);

    assertThat(shout.sawMultivaluedBlocks).containsExactly(true);
    assertThat(out).hasSize(3);
    assertThat(out.get(0))
        .containsEntry("count", 2L)
        .containsEntry("loud", List.of("RED", "BLUE"))
        .containsEntry("tags", List.of("red", "blue"))
        .as("a field it never saw")
        .containsEntry("n", List.of(1L, 2L));
    assertThat(out.get(1)).containsEntry("count", 1L).containsEntry("loud", "GREEN");
    assertThat(out.get(2)).containsEntry("loud", "X Y");
    assertThat(memory.used()).isZero();
  }
}
