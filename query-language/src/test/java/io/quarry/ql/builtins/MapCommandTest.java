package io.quarry.ql.builtins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.ql.parser.QueryParseException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code map}'s syntax and its {@code $field$} tokens; its runs are tested against a server. */
class MapCommandTest {
  @Test
  void tokensAreReplacedByTheResultsValuesAsText() {
    MapTemplate template =
        new MapTemplate("search host=$host$ user=$user$ n=$_serial_id$ cost=$5 a$b c $host$");
    assertThat(template.fields()).containsExactly("host", "user");
    assertThat(template.substitute(Map.of("host", "web-1", "user", "a$1\\x"), 3))
        .isEqualTo("search host=web-1 user=a$1\\x n=3 cost=$5 a$b c web-1");
    assertThat(template.substitute(Map.of("host", "web-1"), 1)).isNull();
    assertThat(template.missing(Map.of("host", "web-1"))).containsExactly("user");
  }

  @Test
  void readsSearchOrBracketsAndMaxsearches() {
    MapCommand.Bound quoted =
        (MapCommand.Bound)
            CommandHarness.parse("map search=\"search host=$host$ | head 2\" maxsearches=3")
                .bound();
    assertThat(quoted.search().text()).isEqualTo("search host=$host$ | head 2");
    assertThat(quoted.maxSearches()).isEqualTo(3);
    assertThat(quoted.requiredFields()).isEqualTo(java.util.Set.of("host"));
    MapCommand.Bound bracketed =
        (MapCommand.Bound) CommandHarness.parse("map maxsearches=2 [search host=$h$]").bound();
    assertThat(bracketed.search().text()).isEqualTo("search host=$h$");
    assertThat(bracketed.search().bracketed()).isTrue();
    assertThat(((MapCommand.Bound) CommandHarness.parse("map search=\"x\"").bound()).maxSearches())
        .isEqualTo(10);
  }

  @Test
  void aMapMayWriteUntilItsRunnerIsReadOnly() {
    io.quarry.ql.ast.PluginCommand map =
        CommandHarness.parse("map search=\"| makeresults | eval s=\\\"$status$\\\"\"");
    MapCommand.Bound bound = (MapCommand.Bound) map.bound();
    assertThat(bound.searchTemplate("1")).isEqualTo("| makeresults | eval s=\"1\"");
    assertThat(io.quarry.ql.plan.WritesEvents.mayWrite(map)).isTrue();
    io.quarry.ql.plan.SubsearchRunner runner = (subsearch, maxRows, maxTime) -> null;
    io.quarry.ql.ast.PluginCommand readOnly =
        new io.quarry.ql.ast.PluginCommand(
            map.name(),
            map.plugin(),
            map.kind(),
            map.arguments(),
            bound.withReadOnlyRunner(runner),
            map.position());
    assertThat(io.quarry.ql.plan.WritesEvents.mayWrite(readOnly)).isFalse();
    // a runner handed again (the subsearches run once more) makes it writing until checked again
    assertThat(((MapCommand.Bound) readOnly.bound()).withRunner(runner))
        .extracting(b -> ((MapCommand.Bound) b).readOnly())
        .isEqualTo(false);
  }

  @Test
  void badUsesAreParseErrors() {
    for (String bad :
        List.of(
            "map",
            "map maxsearches=3",
            "map search=\"\"",
            "map search=\"x\" maxsearches=0",
            "map search=\"x\" maxsearches=abc",
            "map search=\"x\" other=1",
            "map mysaved",
            "map [search x")) {
      assertThatThrownBy(() -> CommandHarness.parse(bad))
          .as(bad)
          .isInstanceOf(QueryParseException.class);
    }
    assertThatThrownBy(() -> CommandHarness.parse("appendpipe [map search=\"x\"]"))
        .hasMessageContaining("appendpipe cannot run 'map'");
    assertThatThrownBy(() -> CommandHarness.parse("map mysaved"))
        .hasMessageContaining("search=\"| savedsearch mysaved\"");
  }

  @Test
  void helpShowsItsSyntax() {
    var help = io.quarry.ql.command.CommandRegistry.builtIns().help("map").orElseThrow();
    assertThat(help.syntax()).contains("search=").contains("maxsearches");
    assertThat(help.kind()).isEqualTo(io.quarry.plugin.api.command.CommandKind.CENTRALIZED);
  }

  @Test
  void withoutARunnerItRefusesToRun() {
    assertThatThrownBy(() -> CommandHarness.run("map search=\"x\"", List.of(Map.of("a", 1))))
        .hasMessageContaining("only inside a search of the server");
  }
}
