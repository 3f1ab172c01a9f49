package io.quarry.ql.builtins;

import static io.quarry.ql.builtins.CommandHarness.row;
import static io.quarry.ql.builtins.CommandHarness.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.ql.parser.QueryParseException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** mvexpand, makemv and mvcombine over pages. */
class MultivalueCommandsTest {

  @Test
  void mvexpandMakesARowPerValue() {
    var rows =
        List.of(
            row("id", 1L, "tag", List.of("a", "b", "c")),
            row("id", 2L),
            row("id", 3L, "tag", "d"),
            row("id", 4L, "tag", List.of(5L, 6L)));
    var out = run("mvexpand tag", rows);
    assertThat(out).extracting(r -> r.get("id")).containsExactly(1L, 1L, 1L, 2L, 3L, 4L, 4L);
    assertThat(out)
        .extracting(r -> io.quarry.ql.exec.Values.toText(r.get("tag")))
        .containsExactly("a", "b", "c", "null", "d", "5", "6");
    var limited = run("mvexpand tag limit=2", rows);
    assertThat(limited).extracting(r -> r.get("id")).containsExactly(1L, 1L, 2L, 3L, 4L, 4L);
    assertThatThrownBy(() -> CommandHarness.parse("mvexpand tag limit=-1"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("limit");
    assertThatThrownBy(() -> CommandHarness.parse("mvexpand"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("field");
  }

  @Test
  void makemvSplitsOnADelimiterOrATokenizer() {
    var rows = List.of(row("s", "a,b,,c"), row("s", "one"), row("x", 1L), row("s", ""));
    assertThat(run("makemv delim=\",\" s", rows))
        .extracting(r -> r.get("s"))
        .containsExactly(List.of("a", "b", "c"), "one", null, null);
    assertThat(run("makemv delim=\",\" allowempty=true s", rows).get(0))
        .containsEntry("s", List.of("a", "b", "", "c"));
    assertThat(run("makemv delim=\",\" setsv=true s", rows).get(0)).containsEntry("s", "a,b,c");
    assertThat(run("makemv tokenizer=\"([a-z]+)\" s", rows).get(0))
        .containsEntry("s", List.of("a", "b", "c"));
    assertThat(run("makemv s", List.of(row("s", "x y  z"))).get(0))
        .containsEntry("s", List.of("x", "y", "z"));
    assertThatThrownBy(() -> CommandHarness.parse("makemv delim=\",\" tokenizer=x s"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("not both");
    assertThatThrownBy(() -> CommandHarness.parse("makemv tokenizer=\"(\" s"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("tokenizer");
  }

  @Test
  void mvcombineMergesRowsThatDifferOnlyInTheField() {
    var rows =
        List.of(
            row("host", "a", "n", 1L, "user", "x"),
            row("host", "a", "n", 1L, "user", "y"),
            row("host", "b", "n", 1L, "user", "x"),
            row("host", "a", "n", 1L, "user", "x"),
            row("host", "a", "n", 2L, "user", "z"));
    var out = run("mvcombine user", rows);
    assertThat(out)
        .containsExactly(
            row("host", "a", "n", 1L, "user", List.of("x", "y")),
            row("host", "b", "n", 1L, "user", "x"),
            row("host", "a", "n", 2L, "user", "z"));
    assertThat(CommandHarness.heldBytes("mvcombine user", rows)).isPositive();
  }

  @Test
  void holdingPastTheMemoryLimitFailsNamingTheCommand() {
    var rows = new java.util.ArrayList<java.util.Map<String, Object>>();
    for (int i = 0; i < 2_000; i++) {
      rows.add(row("k", "key-" + i, "v", (long) i));
    }
    assertThatThrownBy(() -> CommandHarness.runWithLimit("mvcombine v", rows, 64 * 1024))
        .isInstanceOf(io.quarry.plugin.api.data.MemoryLimitExceededException.class)
        .hasMessageContaining("mvcombine");
    assertThatThrownBy(() -> CommandHarness.runWithLimit("xyseries k v v", rows, 64 * 1024))
        .isInstanceOf(io.quarry.plugin.api.data.MemoryLimitExceededException.class)
        .hasMessageContaining("xyseries");
  }
}
