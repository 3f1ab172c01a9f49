package io.quarry.ql.builtins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.ql.ast.HelpCommand;
import io.quarry.ql.command.CommandHelp;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The page commands are registered as built-ins: help, kinds, names, docs. */
class BuiltinRegistrationTest {
  private static final CommandRegistry REGISTRY = CommandRegistry.builtIns();

  @Test
  void everyCommandHasHelpAsABuiltIn() {
    for (CommandDefinition definition : BuiltinCommands.all()) {
      CommandHelp help = REGISTRY.help(definition.name()).orElseThrow();
      assertThat(help.plugin()).isEqualTo(CommandHelp.BUILT_IN);
      assertThat(help.kind()).isEqualTo(definition.kind());
      assertThat(help.syntax()).startsWith(definition.name());
      assertThat(help.arguments()).hasSize(definition.arguments().size());
    }
    assertThat(REGISTRY.help("convert").orElseThrow().syntax()).contains("AS <field>");
  }

  @Test
  void helpListsTheArguments() {
    HelpCommand help = (HelpCommand) new Parser(REGISTRY).parse("| help makemv").commands().get(0);
    assertThat(help.rows())
        .extracting(r -> r.get("argument"))
        .containsExactly("field", "delim", "tokenizer", "allowempty", "setsv");
    Map<String, Object> field = help.rows().get(0);
    assertThat(field).containsEntry("positional", true).containsEntry("required", true);
  }

  @Test
  void aPluginCannotTakeTheirNamesNorTheBuiltInLabel() {
    assertThatThrownBy(() -> REGISTRY.withPlugin("x", List.of(new FillNullCommand())))
        .hasMessageContaining("already defined by a built-in");
    assertThatThrownBy(() -> REGISTRY.withPlugin(CommandHelp.BUILT_IN, List.of()))
        .hasMessageContaining("cannot be named");
  }

  @Test
  void aUseMayHaveItsOwnKind() {
    assertThat(CommandHarness.parse("addtotals").kind()).isEqualTo(CommandKind.STREAMING);
    assertThat(CommandHarness.parse("addtotals col=t").kind()).isEqualTo(CommandKind.CENTRALIZED);
    assertThat(CommandHarness.parse("fillnull x").describe()).isEqualTo("command 'fillnull'");
  }

  @Test
  void everyCommandHasItsPage() {
    Path docs = Path.of("..", "docs", "commands");
    for (CommandDefinition definition : BuiltinCommands.all()) {
      Path page = docs.resolve(definition.name() + ".md");
      assertThat(page).as("docs/commands/%s.md", definition.name()).exists();
    }
    assertThat(Files.exists(docs.resolve("convert.md"))).isTrue();
  }
}
