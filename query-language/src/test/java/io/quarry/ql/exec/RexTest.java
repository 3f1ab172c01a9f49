package io.quarry.ql.exec;

import static io.quarry.ql.exec.PipelineTest.run;
import static io.quarry.ql.exec.PipelineTest.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** rex: named groups (underscores and PCRE's ?P allowed), max_match, field=, sed mode. */
class RexTest {
  private static final List<Row> ROWS =
      List.of(
          TestRow.of("a", "_raw", "user=alice id=7 id=8 took 12ms", "path", "/a/b"),
          TestRow.of("b", "_raw", "no match here", "path", "/c"));

  private static List<List<Object>> rows(String query) {
    return table(run(query, ROWS, 100));
  }

  @Test
  void extractsNamedGroupsWithSplunkNames() {
    assertThat(
            rows(
                "* | rex \"user=(?<user_name>\\\\w+).*took (?P<took_ms>\\\\d+)ms\" | table user_name took_ms"))
        .containsExactly(List.of("alice", "12"), Arrays.asList(null, null));
    assertThat(rows("* | rex \"id=(?<id>\\\\d+)\" | table id"))
        .containsExactly(List.of("7"), Arrays.asList((Object) null));
    assertThat(rows("* | rex max_match=0 \"id=(?<id>\\\\d+)\" | table id").get(0))
        .containsExactly(List.of("7", "8"));
    assertThat(rows("* | rex field=path \"^/(?<top>[^/]+)\" | table top"))
        .containsExactly(List.of("a"), List.of("c"));
    // several groups of one simple expression (the one-pass matcher's path)
    assertThat(
            rows(
                "* | rex \"user=(?<u>\\w+) id=(?<first>\\d+) (?<next>\\S+)\" | table u first next"))
        .containsExactly(List.of("alice", "7", "id=8"), Arrays.asList(null, null, null));
  }

  @Test
  void sedModeRewritesTheField() {
    assertThat(rows("* | rex field=path mode=sed \"s/\\\\//_/g\" | table path"))
        .containsExactly(List.of("_a_b"), List.of("_c"));
    assertThat(rows("* | rex field=path mode=sed \"s/\\\\//_/2\" | table path").get(0))
        .containsExactly("/a_b");
    assertThat(rows("* | rex mode=sed \"s/id=(\\\\d)/ID:\\\\1/g\" | table _raw").get(0))
        .containsExactly("user=alice ID:7 ID:8 took 12ms");
    assertThat(rows("* | rex field=path mode=sed \"y/abc/xyz/\" | table path"))
        .containsExactly(List.of("/x/y"), List.of("/z"));
  }

  @Test
  void errors() {
    Parser parser = new Parser(CommandRegistry.builtIns());
    assertThatThrownBy(() -> parser.parse("* | rex \"no groups\""))
        .hasMessageContaining("at least one named group");
    assertThatThrownBy(() -> parser.parse("* | rex \"(?<x>[\""))
        .hasMessageContaining("invalid regular expression");
    assertThatThrownBy(() -> parser.parse("* | rex mode=sed \"q/a/b/\""))
        .hasMessageContaining("starts with s/ or y/");
    assertThatThrownBy(() -> parser.parse("* | rex mode=awk \"s/a/b/\""))
        .hasMessageContaining("rex mode must be sed");
  }
}
