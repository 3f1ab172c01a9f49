package io.quarry.ql.command;

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
import io.quarry.ql.ast.HelpCommand;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.parser.Parser;
import io.quarry.ql.parser.QueryParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PluginCommandParserTest {
  /** A command that declares one of each argument type and binds to nothing in particular. */
  private record Declared(String name, CommandKind kind) implements CommandDefinition {
    @Override
    public String description() {
      return "declares everything";
    }

    @Override
    public List<ArgumentSpec> arguments() {
      return List.of(
          ArgumentSpec.required("field", ArgumentType.FIELD, "a field"),
          ArgumentSpec.optional("limit", ArgumentType.LONG, "10", "a count"),
          ArgumentSpec.optional("ratio", ArgumentType.DOUBLE, null, "a ratio"),
          ArgumentSpec.optional("strict", ArgumentType.BOOLEAN, "f", "a flag"),
          ArgumentSpec.optional("others", ArgumentType.FIELD_LIST, null, "more fields"));
    }

    @Override
    public BoundCommand bind(CommandArguments arguments) {
      if (arguments.has("ratio") && arguments.getDouble("ratio") > 1) {
        throw new IllegalArgumentException("ratio must be at most 1");
      }
      return new BoundCommand() {
        @Override
        public Set<String> requiredFields() {
          return Set.of(arguments.getString("field"));
        }

        @Override
        public Set<String> producedFields() {
          return Set.of();
        }

        @Override
        public Operator createOperator(OperatorContext context) {
          throw new UnsupportedOperationException();
        }
      };
    }
  }

  /** A command whose main argument is positional, as Splunk's {@code iplocation clientip}. */
  private record Positional(String name, List<ArgumentSpec> arguments)
      implements CommandDefinition {
    Positional(String name, ArgumentSpec... arguments) {
      this(name, List.of(arguments));
    }

    @Override
    public String description() {
      return "takes its field without a name";
    }

    @Override
    public CommandKind kind() {
      return CommandKind.STREAMING;
    }

    @Override
    public BoundCommand bind(CommandArguments arguments) {
      return new Declared(name, CommandKind.STREAMING).bind(arguments);
    }
  }

  private static final ArgumentSpec FIELD =
      ArgumentSpec.optional("field", ArgumentType.FIELD, "clientip", "the field").alsoPositional();

  private final CommandRegistry registry =
      CommandRegistry.builtIns()
          .withPlugin(
              "demo",
              List.of(
                  new Declared("declared", CommandKind.STREAMING),
                  new Declared("gen", CommandKind.GENERATING),
                  new Positional(
                      "locate",
                      ArgumentSpec.optional("prefix", ArgumentType.STRING, "", "a prefix"),
                      FIELD),
                  new Positional(
                      "limited",
                      ArgumentSpec.required("limit", ArgumentType.LONG, "a count")
                          .alsoPositional())));

  private PluginCommand parse(String command) {
    return (PluginCommand) new Parser(registry).parse("* | " + command).commands().get(1);
  }

  @Test
  void convertsOptionsFillsDefaultsAndCollectsFields() {
    PluginCommand command = parse("declared a b field=uri ratio=0.5 strict=yes c");
    assertThat(command.plugin()).isEqualTo("demo");
    assertThat(command.arguments().values())
        .isEqualTo(Map.of("field", "uri", "limit", 10L, "ratio", 0.5, "strict", true));
    assertThat(command.arguments().fields()).containsExactly("a", "b", "c");
    assertThat(command.bound().requiredFields()).containsExactly("uri");
  }

  @Test
  void aPositionalArgumentIsGivenWithOrWithoutItsName() {
    for (String use :
        List.of(
            "locate src",
            "locate field=src",
            "locate prefix=p_ src",
            "locate src prefix=p_",
            "locate \"src\"",
            "locate field=\"src\" prefix=p_")) {
      PluginCommand command = parse(use);
      assertThat(command.arguments().getString("field")).as(use).isEqualTo("src");
      assertThat(command.arguments().fields()).as(use).isEmpty();
    }
    assertThat(parse("locate").arguments().getString("field")).isEqualTo("clientip");
    assertThat(parse("locate prefix=p_").arguments().values())
        .isEqualTo(Map.of("prefix", "p_", "field", "clientip"));
    // converted to its declared type, and required like a named one
    assertThat(parse("limited 5").arguments().getLong("limit")).isEqualTo(5);
    assertThat(parse("limited limit=5").arguments().getLong("limit")).isEqualTo(5);
    assertThatThrownBy(() -> parse("limited five"))
        .hasMessageContaining("limit must be a long, not 'five'");
    assertThatThrownBy(() -> parse("limited")).hasMessageContaining("limited needs limit=");
  }

  @Test
  void aPositionalArgumentIsGivenOnce() {
    assertThatThrownBy(() -> parse("locate src dest"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("locate: field is already given at column 12")
        .satisfies(e -> assertThat(((QueryParseException) e).token()).isEqualTo("dest"));
    assertThatThrownBy(() -> parse("locate field=src dest"))
        .hasMessageContaining("locate: field is already given at column 12");
    assertThatThrownBy(() -> parse("locate src field=dest"))
        .hasMessageContaining("locate: field is already given at column 12");
    assertThatThrownBy(() -> parse("locate ("))
        .hasMessageContaining("expected the field (the field) or an option");
    // a command without one still refuses bare words
    assertThatThrownBy(() -> parse("limited limit=5 6"))
        .hasMessageContaining("limit is already given");
  }

  @Test
  void aPositionalArgumentIsDeclaredAlone() {
    assertThatThrownBy(
            () ->
                registry.withPlugin(
                    "other",
                    List.of(
                        new Positional(
                            "two",
                            FIELD,
                            ArgumentSpec.optional("other", ArgumentType.FIELD, null, "another")
                                .alsoPositional()))))
        .hasMessageContaining(
            "command 'two' declares two positional arguments: 'field' and 'other'");
    assertThatThrownBy(
            () ->
                registry.withPlugin(
                    "other",
                    List.of(
                        new Positional(
                            "both",
                            FIELD,
                            ArgumentSpec.optional(
                                "others", ArgumentType.FIELD_LIST, null, "fields")))))
        .hasMessageContaining("declares a field list and a positional argument ('field')");
    assertThatThrownBy(
            () ->
                ArgumentSpec.optional("others", ArgumentType.FIELD_LIST, null, "fields")
                    .alsoPositional())
        .hasMessageContaining("is a field list, which is given without a name already");
    assertThat(FIELD.positional()).isTrue();
    assertThat(new ArgumentSpec("field", ArgumentType.FIELD, false, "x", "old style").positional())
        .isFalse();
  }

  @Test
  void reportsEachMistakeAtItsToken() {
    assertThatThrownBy(() -> parse("declared limit=5"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("declared needs field=");
    assertThatThrownBy(() -> parse("declared field=a limit=many"))
        .hasMessageContaining("limit must be a long, not 'many'");
    assertThatThrownBy(() -> parse("declared field=a strict=maybe"))
        .hasMessageContaining("strict must be a boolean");
    assertThatThrownBy(() -> parse("declared field=a colour=red"))
        .hasMessageContaining("Unknown option 'colour' for declared");
    assertThatThrownBy(() -> parse("declared field=a ratio=2"))
        .hasMessageContaining("declared: ratio must be at most 1");
  }

  @Test
  void generatingCommandsComeFirst() {
    assertThat(new Parser(registry).parse("| gen field=x").commands().get(0))
        .isInstanceOf(PluginCommand.class);
    assertThatThrownBy(() -> parse("gen field=x"))
        .hasMessageContaining("'gen' generates rows: it can only be the first command");
    assertThatThrownBy(() -> new Parser(registry).parse("| declared field=x"))
        .hasMessageContaining(
            "the generating commands: dbinspect, eventcount, gen, gentimes, help, inputlookup, makeresults,"
                + " mcatalog, metadata, mpreview, mstats, multisearch, tstats, union");
  }

  @Test
  void namesCannotBeTakenTwice() {
    assertThatThrownBy(
            () ->
                registry.withPlugin(
                    "other", List.of(new Declared("declared", CommandKind.STREAMING))))
        .hasMessageContaining("command 'declared' is already defined by plugin 'demo'");
    assertThatThrownBy(
            () ->
                registry.withPlugin("other", List.of(new Declared("head", CommandKind.STREAMING))))
        .hasMessageContaining("already defined by a built-in");
    assertThatThrownBy(
            () ->
                registry.withPlugin(
                    "other", List.of(new Declared("Bad-Name", CommandKind.STREAMING))))
        .hasMessageContaining("is not a lower-case word");
  }

  @Test
  void helpDescribesBuiltInsAndPlugins() {
    HelpCommand one = (HelpCommand) new Parser(registry).parse("| help declared").commands().get(0);
    assertThat(one.rows()).hasSize(5);
    assertThat(one.rows().get(0))
        .containsEntry("command", "declared")
        .containsEntry("kind", "streaming")
        .containsEntry("plugin", "demo")
        .containsEntry("argument", "field")
        .containsEntry("required", true);
    assertThat(one.rows().get(0).get("syntax"))
        .isEqualTo(
            "declared field=<field> [limit=<long>] [ratio=<double>] [strict=<boolean>] [<others>...]");
    HelpCommand locate =
        (HelpCommand) new Parser(registry).parse("| help locate").commands().get(0);
    assertThat(locate.rows().get(0).get("syntax"))
        .isEqualTo("locate [prefix=<string>] [[field=]<field>]");
    assertThat(locate.rows().get(1))
        .containsEntry("argument", "field")
        .containsEntry("positional", true);
    assertThat(locate.rows().get(0)).doesNotContainKey("positional");
    HelpCommand all = (HelpCommand) new Parser(registry).parse("| help").commands().get(0);
    assertThat(all.rows()).extracting(r -> r.get("command")).contains("stats", "declared", "help");
    HelpCommand stats = (HelpCommand) new Parser(registry).parse("| help STATS").commands().get(0);
    assertThat(stats.rows().get(0))
        .containsEntry("plugin", "built-in")
        .containsEntry("kind", "transforming");
    assertThatThrownBy(() -> new Parser(registry).parse("| help stast"))
        .hasMessageContaining("Did you mean 'stats'?");
  }
}
