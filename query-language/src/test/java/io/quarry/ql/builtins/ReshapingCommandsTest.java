package io.quarry.ql.builtins;

import static io.quarry.ql.builtins.CommandHarness.row;
import static io.quarry.ql.builtins.CommandHarness.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.ql.parser.QueryParseException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** spath, xyseries, untable and addtotals over pages. */
class ReshapingCommandsTest {
  private static final String DOC =
      "{\"user\":{\"name\":\"ann\",\"roles\":[\"admin\",\"dev\"]},"
          + "\"items\":[{\"id\":1,\"price\":2.5},{\"id\":2,\"price\":4}],\"ok\":true,\"none\":null}";

  @Test
  void spathReadsOnePath() {
    var rows = List.of(row("_raw", DOC), row("_raw", "not json"), row("_raw", "[1,2]"));
    assertThat(run("spath user.name", rows))
        .extracting(r -> r.get("user.name"))
        .containsExactly("ann", null, null);
    assertThat(run("spath output=r path=user.roles{}", rows).get(0))
        .containsEntry("r", List.of("admin", "dev"));
    assertThat(run("spath output=r path=user.roles{1}", rows).get(0)).containsEntry("r", "dev");
    assertThat(run("spath output=p path=items{}.price", rows).get(0))
        .containsEntry("p", List.of(2.5, 4.0));
    assertThat(run("spath output=first path={0}", rows).get(2)).containsEntry("first", 1L);
    assertThat(run("spath output=u path=user", rows).get(0))
        .containsEntry("u", "{\"name\":\"ann\",\"roles\":[\"admin\",\"dev\"]}");
    assertThat(run("spath input=j output=n path=a", List.of(row("j", "{\"a\":3}"))).get(0))
        .containsEntry("n", 3L);
  }

  @Test
  void spathExtractsEveryPathWithoutOne() {
    var out = run("spath", List.of(row("_raw", DOC), row("_raw", "{\"x\":1}")));
    assertThat(out.get(0))
        .containsEntry("user.name", "ann")
        .containsEntry("user.roles{}", List.of("admin", "dev"))
        .containsEntry("items{}.id", List.of(1L, 2L))
        .containsEntry("ok", "true")
        .doesNotContainKey("none");
    assertThat(out.get(1)).containsEntry("x", 1L).doesNotContainKey("user.name");
  }

  @Test
  void spathErrors() {
    assertThatThrownBy(() -> CommandHarness.parse("spath output=x"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("output= needs a path");
    assertThatThrownBy(() -> CommandHarness.parse("spath a{b}"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("not an array index");
    assertThatThrownBy(() -> CommandHarness.parse("spath a{@x}.b"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("XML attribute");
  }

  private static final List<java.util.Map<String, Object>> LONG_TABLE =
      List.of(
          row("day", "mon", "host", "a", "count", 3L),
          row("day", "mon", "host", "b", "count", 4L),
          row("day", "tue", "host", "a", "count", 5L),
          row("day", "wed", "host", "c", "count", 1L));

  @Test
  void xyseriesPivotsAndUntableUndoesIt() {
    var wide = run("xyseries day host count", LONG_TABLE);
    assertThat(wide)
        .containsExactly(
            row("day", "mon", "a", 3L, "b", 4L),
            row("day", "tue", "a", 5L),
            row("day", "wed", "c", 1L));
    assertThat(CommandHarness.heldBytes("xyseries day host count", LONG_TABLE)).isPositive();
    var back = run("untable day host count", wide);
    assertThat(back)
        .containsExactly(
            row("day", "mon", "host", "a", "count", 3L),
            row("day", "mon", "host", "b", "count", 4L),
            row("day", "tue", "host", "a", "count", 5L),
            row("day", "wed", "host", "c", "count", 1L));
    var two =
        run(
            "xyseries day host count n",
            List.of(row("day", "mon", "host", "a", "count", 3L, "n", 1L)));
    assertThat(two.get(0)).containsEntry("count: a", 3L).containsEntry("n: a", 1L);
    assertThatThrownBy(() -> CommandHarness.parse("xyseries day host"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("y-data");
    assertThatThrownBy(() -> CommandHarness.parse("untable a b"))
        .isInstanceOf(QueryParseException.class);
  }

  @Test
  void addtotalsAddsRowAndColumnSums() {
    var rows =
        List.of(
            row("name", "a", "x", 1L, "y", "2.5", "_t", 100L),
            row("name", "b", "x", 4L, "y", "n/a"),
            row("name", "c", "z", 0.1));
    var out = run("addtotals", rows);
    assertThat(out)
        .extracting(r -> io.quarry.ql.exec.Values.toText(r.get("Total")))
        .containsExactly("3.5", "4", "0.1");
    var both = run("addtotals col=t labelfield=name label=Sum fieldname=T x y", rows);
    assertThat(both).hasSize(4);
    assertThat(both.get(3)).isEqualTo(row("x", 5L, "y", 2.5, "T", 7.5, "name", "Sum"));
    var colOnly = run("addtotals row=f col=t x*", rows);
    assertThat(colOnly.get(3)).isEqualTo(row("x", 5L));
    assertThat(CommandHarness.heldBytes("addtotals col=t", rows)).isPositive();
  }
}
